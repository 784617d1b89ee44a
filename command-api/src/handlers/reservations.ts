// Rules that span records are decided against the log, in streams of their own appended with the
// revision that was read, so two concurrent requests can never both win:
// - a name that must be unique (an appName, an email, the one admin, a host port, a basic-auth
//   username) is claimed before the record that carries it is written, and let go after;
// - a resource others depend on (a destination, a registry) counts its users, and is retired
//   only while it has none.
import { claimEach, releaseEach, type ReservationScope, type RunReservation } from '@berth/shared/runtime/claims';
import { usageAggregate, usageKey, type UsageWords } from '@berth/shared/domain/usage/usage';
import type { Context } from '../context.ts';

type Scope = ReservationScope;
type Kind = Parameters<typeof usageKey>[0];
/** What a refused claim of `name` answers (the refusal itself by default). */
type Refused = (name: string, error: unknown) => unknown;

/** A request's reservation commands, run in its context. */
const inContext = (ctx: Context): RunReservation => (aggregate, key, command) => ctx.execute(aggregate, key, command);

/** Claims `name` for `owner`; CONFLICT naming `field` when another owner holds it. */
export const claim = (ctx: Context, scope: Scope, name: string, owner: string, field: string = scope, refused?: Refused): Promise<void> =>
  claimEach(inContext(ctx), scope, [name], owner, field, refused);

export const release = (ctx: Context, scope: Scope, name: string, owner: string): Promise<void> =>
  releaseEach(inContext(ctx), scope, [name], owner);

/**
 * Applies a change that moves a record from one claim to another (either may be null, none):
 * the new one is taken first, then the change is applied, and only then is the old one let go,
 * so a failure leaves the record with a claim it owns. `next` undefined leaves it as it is.
 */
async function moving<T>(
  current: string | null, next: string | null | undefined,
  take: (name: string) => Promise<void>, letGo: (name: string) => Promise<void>, apply: () => Promise<T>,
): Promise<T> {
  if (next === undefined || next === current) return apply();
  if (next !== null) await take(next);
  const result = await apply();
  if (current !== null) await letGo(current);
  return result;
}

/** Applies a change that may move a record to another unique name (or to none). */
export const moveName = <T>(
  ctx: Context, scope: Scope, current: string | null, next: string | null | undefined, owner: string,
  apply: () => Promise<T>, field: string = scope, refused?: Refused,
): Promise<T> => moving(current, next, (name) => claim(ctx, scope, name, owner, field, refused), (name) => release(ctx, scope, name, owner), apply);

/**
 * Applies a change that moves a record from one set of unique names to another: the names it
 * gains are claimed first (if one is refused, or the change fails, those just claimed are let go),
 * and the ones it loses are let go after.
 */
export async function moveNames<T>(
  ctx: Context, scope: Scope, current: readonly string[], next: readonly string[], owner: string,
  apply: () => Promise<T>, field: string = scope,
): Promise<T> {
  const gained = next.filter((name) => !current.includes(name));
  await claimEach(inContext(ctx), scope, gained, owner, field);
  let result: T;
  try {
    result = await apply();
  } catch (error) {
    await releaseEach(inContext(ctx), scope, gained, owner);
    throw error;
  }
  await releaseEach(inContext(ctx), scope, current.filter((name) => !next.includes(name)), owner);
  return result;
}

export { hostPort } from '@berth/shared/domain/reservation/reservation';

/** Adds `user` to the users of a resource; NOT_FOUND naming its field when it is being removed. */
export async function use(ctx: Context, kind: Kind, id: string, user: string, words: UsageWords): Promise<void> {
  const key = usageKey(kind, id);
  await ctx.execute(usageAggregate, key, { type: 'Use', data: { key, user, words } });
}

export async function stopUsing(ctx: Context, kind: Kind, id: string, user: string): Promise<void> {
  const key = usageKey(kind, id);
  await ctx.execute(usageAggregate, key, { type: 'StopUsing', data: { key, user } });
}

/** Lets a resource go for good; CONFLICT naming its field, saying `why`, while it has users. */
export async function retire(ctx: Context, kind: Kind, id: string, words: UsageWords, why: string): Promise<void> {
  const key = usageKey(kind, id);
  await ctx.execute(usageAggregate, key, { type: 'Retire', data: { key, words, why } });
}

/** Applies a change that may move a record from using one resource to another (either may be null). */
export const moveUse = <T>(
  ctx: Context, kind: Kind, current: string | null, next: string | null | undefined, user: string, words: UsageWords,
  apply: () => Promise<T>,
): Promise<T> => moving(current, next, (id) => use(ctx, kind, id, user, words), (id) => stopUsing(ctx, kind, id, user), apply);
