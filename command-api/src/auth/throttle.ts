// Guards the operations that check a credential (password, pin, invitation) against guessing:
// past the limit of failures in the window, they answer TOO_MANY_REQUESTS with Retry-After.
import { throttleAggregate, retryAfterSeconds, type Limit } from '@berth/shared/domain/throttle/throttle';
import { DomainError, tooManyRequests } from '@berth/shared/errors';
import type { Context } from '../context.ts';

export interface GuardKeys {
  /** The account (or the email, when it may not exist) the attempt is about. */
  readonly account: string;
}

const isCredentialFailure = (error: unknown) =>
  error instanceof DomainError && (error.code === 'UNAUTHORIZED' || error.code === 'BAD_REQUEST');

export async function guarded<T>(ctx: Context, operation: string, keys: GuardKeys, attempt: () => Promise<T>): Promise<T> {
  const { config } = ctx.infra;
  const windowMs = config.attemptWindowSeconds * 1000;
  const limits: Array<[string, Limit]> = [
    [`${operation}:account:${keys.account}`, { attempts: config.attemptsPerAccount, windowMs }],
    [`${operation}:address:${ctx.clientAddress}`, { attempts: config.attemptsPerAddress, windowMs }],
  ];
  for (const [key, limit] of limits) {
    const { state } = await ctx.load(throttleAggregate, key);
    const wait = retryAfterSeconds(state, ctx.now, limit);
    if (wait > 0) throw tooManyRequests(wait);
  }
  try {
    const result = await attempt();
    await ctx.execute(throttleAggregate, limits[0]![0], { type: 'ClearFailures', data: { key: limits[0]![0] } });
    return result;
  } catch (error) {
    if (isCredentialFailure(error)) {
      for (const [key, limit] of limits) {
        await ctx.execute(throttleAggregate, key, { type: 'RecordFailure', data: { key, at: ctx.now, limit } });
      }
    }
    throw error;
  }
}
