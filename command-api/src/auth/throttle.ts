// Guards the operations that check a credential (password, pin, invitation) against guessing: an
// attempt takes a slot per key before its credential is checked, so parallel attempts count while
// in flight; past the limit it answers TOO_MANY_REQUESTS with Retry-After and checks nothing.
import { attemptSlotsAggregate, slotWaitSeconds, type Limit } from '@berth/shared/domain/throttle/throttle';
import { DomainError, tooManyRequests } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import { addressBudget } from './address-budget.ts';
import type { Context } from '../context.ts';

/**
 * What failures count against: every way of signing in (password, pin, invitation token) shares
 * one budget per account and one per address, so no operation adds guesses to another's.
 */
export type Budget = 'sign-in' | 'verify2FASetup';

export interface GuardKeys {
  /** The account the attempt is about: its id, or `email:<email>` for an email that names none. */
  readonly account: string;
}

const isCredentialFailure = (error: unknown) =>
  error instanceof DomainError && (error.code === 'UNAUTHORIZED' || error.code === 'BAD_REQUEST');
const isConflict = (error: unknown) => error instanceof DomainError && error.code === 'CONFLICT';

async function takeSlot(ctx: Context, key: string, limit: Limit, attemptId: string): Promise<void> {
  try {
    await ctx.execute(attemptSlotsAggregate, key, { type: 'TakeSlot', data: { key, attemptId, at: ctx.now, limit } });
  } catch (error) {
    // So many attempts at once that the stream kept moving under this one: refused like one past the limit.
    throw isConflict(error) ? tooManyRequests(1) : error;
  }
}

interface Guard {
  readonly key: string;
  readonly limit: Limit;
  readonly isAccount: boolean;
}

/**
 * Gives back the slots an attempt holds, after a success with the account's failures before it;
 * a slot that stays taken (its stream too busy) only leaves the window later.
 */
const giveBack = (ctx: Context, held: readonly Guard[], attemptId: string, succeeded: boolean) => Promise.all(held.map(({ key, isAccount }) =>
  ctx.execute(attemptSlotsAggregate, key, { type: 'GiveBackSlot', data: { key, attemptId, withEarlier: succeeded && isAccount } })
    .catch((error: unknown) => { if (!isConflict(error)) throw error; })));

export async function guarded<T>(ctx: Context, budget: Budget, keys: GuardKeys, attempt: () => Promise<T>): Promise<T> {
  const { config } = ctx.infra;
  const windowMs = config.attemptWindowSeconds * 1000;
  // The address first: an attempt refused there takes nothing from the account's slots.
  const guards: Guard[] = [
    { key: `${budget}:address:${addressBudget(ctx.clientAddress)}`, limit: { attempts: config.attemptsPerAddress, windowMs }, isAccount: false },
    { key: `${budget}:account:${keys.account}`, limit: { attempts: config.attemptsPerAccount, windowMs }, isAccount: true },
  ];
  // Refused from what this process has read, an attempt past the limit writes nothing to the log.
  for (const { key, limit } of guards) {
    const wait = slotWaitSeconds((await ctx.load(attemptSlotsAggregate, key)).state, ctx.now, limit);
    if (wait > 0) throw tooManyRequests(wait);
  }
  const attemptId = newId();
  const held: Guard[] = [];
  try {
    for (const guard of guards) {
      await takeSlot(ctx, guard.key, guard.limit, attemptId);
      held.push(guard);
    }
  } catch (error) {
    await giveBack(ctx, held, attemptId, false);
    throw error;
  }
  try {
    const result = await attempt();
    await giveBack(ctx, held, attemptId, true);
    return result;
  } catch (error) {
    // A wrong credential keeps its slots; anything else was no guess and gives them back.
    if (!isCredentialFailure(error)) await giveBack(ctx, held, attemptId, false);
    throw error;
  }
}
