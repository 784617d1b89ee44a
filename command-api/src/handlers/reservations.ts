// Rules that span records are decided against the log, in streams of their own appended with the
// revision that was read, so two concurrent requests can never both win:
// - a name that must be unique (an appName, an email, the one admin, a host port, a basic-auth
//   username) is claimed before the record that carries it is written, and let go after;
// - a resource others depend on (a destination, a registry, a project, an application, a database) counts its
//   users, and is retired only while it has none.
import { claimEach, releaseEach, type ReservationScope, type RunReservation } from '@berth/shared/runtime/claims';
import { reservationAggregate, reservationKey } from '@berth/shared/domain/reservation/reservation';
import { usageAggregate, usageKey, type UsageKind, type UsageWords } from '@berth/shared/domain/usage/usage';
import { DomainError } from '@berth/shared/errors';
import { UnavailableError } from '@berth/shared/ports/unavailable';
import type { Context } from '../context.ts';

type Scope = ReservationScope;
type Kind = UsageKind;
/** What a refused claim of `name` answers (the refusal itself by default). */
type Refused = (name: string, error: unknown) => unknown;

/** A request's reservation commands, run in its context. */
const inContext = (ctx: Context): RunReservation => (aggregate, key, command) => ctx.execute(aggregate, key, command);

/** Claims `name` for `owner`; CONFLICT naming `field` when another owner holds it. */
export const claim = (ctx: Context, scope: Scope, name: string, owner: string, field: string = scope, refused?: Refused): Promise<void> =>
  claimEach(inContext(ctx), scope, [name], owner, field, refused);

/** Claims `name` for `owner` unless another holds it: false then, and nothing appended. */
export async function tryClaim(ctx: Context, scope: Scope, name: string, owner: string): Promise<boolean> {
  try {
    await claim(ctx, scope, name, owner);
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'CONFLICT') return false;
    throw error;
  }
}

/** Who holds `name` in the log now; null when nobody does. */
export async function holderOf(ctx: Context, scope: Scope, name: string): Promise<string | null> {
  return (await ctx.load(reservationAggregate, reservationKey(scope, name))).state?.owner ?? null;
}

/**
 * Refuses now, appending nothing, what claiming `name` for `owner` would refuse: an update checks
 * every claim it makes before it takes the first (the claim itself still decides a race).
 */
export async function mustBeFree(ctx: Context, scope: Scope, name: string, owner: string, field: string = scope, refused?: Refused): Promise<void> {
  const key = reservationKey(scope, name);
  const { state } = await ctx.load(reservationAggregate, key);
  try {
    reservationAggregate.decide({ type: 'Reserve', data: { key, owner, field } }, state);
  } catch (error) {
    // The decider's only refusal: another owner holds the name.
    throw refused ? refused(name, error) : error;
  }
}

export const release = (ctx: Context, scope: Scope, name: string, owner: string): Promise<void> =>
  releaseEach(inContext(ctx), scope, [name], owner);

/**
 * Applies a change that moves a record from one claim to another (either may be null, none):
 * the new one is taken first, then the change is applied, and only then is the old one let go,
 * so a failure leaves the record with the claim it owned (the new one is let go again). `next` undefined leaves it as it is.
 */
export async function moving<T>(
  current: string | null, next: string | null | undefined,
  take: (name: string) => Promise<void>, letGo: (name: string) => Promise<void>, apply: () => Promise<T>,
): Promise<T> {
  if (next === undefined || next === current) return apply();
  if (next !== null) await take(next);
  let result: T;
  try {
    result = await apply();
  } catch (error) {
    // The record never held it: a claim or a use kept now would outlive it.
    if (next !== null) await letGo(next);
    throw error;
  }
  if (current !== null) await letGo(current);
  return result;
}

/** Claims `name` for a record being created by `apply`; let go again if the creation fails. */
export const withClaim = <T>(
  ctx: Context, scope: Scope, name: string, owner: string, apply: () => Promise<T>, field: string = scope, refused?: Refused,
): Promise<T> => moveName(ctx, scope, null, name, owner, apply, field, refused);

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
  apply: () => Promise<T>, field: string = scope, refused?: Refused,
): Promise<T> {
  const gained = next.filter((name) => !current.includes(name));
  await claimEach(inContext(ctx), scope, gained, owner, field, refused);
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

/** NOT_FOUND naming its field when the resource is retired, decided as Use decides but only read. */
export async function mustBeUsable(ctx: Context, kind: Kind, id: string, user: string, words: UsageWords): Promise<void> {
  const key = usageKey(kind, id);
  usageAggregate.decide({ type: 'Use', data: { key, user, words } }, (await ctx.load(usageAggregate, key)).state);
}

/** How long a use whose log was away is tried again before the creation it completes is undone. */
const USE_OUTAGE_MS = 30_000;

/**
 * `use`, tried again while the log does not answer: the record it completes exists already, and a
 * store away would refuse its undoing too, leaving a 503 that invites a retry: a second record.
 * A use is idempotent, so one whose append did land before the outage is not counted twice.
 */
async function useThroughOutage(ctx: Context, kind: Kind, id: string, user: string, words: UsageWords): Promise<void> {
  const giveUpAt = Date.now() + USE_OUTAGE_MS;
  for (let pause = 250; ; pause = Math.min(pause * 2, 2000)) {
    try {
      return await use(ctx, kind, id, user, words);
    } catch (error) {
      if (!(error instanceof UnavailableError) || Date.now() + pause > giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/**
 * Creates a record that uses a resource, then counts it among the resource's users: written first,
 * so a refused record appends nothing, nor does a creation in a resource already retired (read
 * first). One retired in between refuses the use: the record is removed again by `remove` (its own
 * removal, which lets its names go) and the refusal answered.
 */
export async function createUser<T>(
  ctx: Context, kind: Kind, id: string, user: string, words: UsageWords, create: () => Promise<T>, remove: () => Promise<unknown>,
): Promise<T> {
  await mustBeUsable(ctx, kind, id, user, words);
  const created = await create();
  try {
    await useThroughOutage(ctx, kind, id, user, words);
  } catch (error) {
    // The refusal is the answer: a removal that fails found the record gone already (the resource's own removal took it).
    await remove().catch(() => undefined);
    throw error;
  }
  return created;
}

/** The users of a resource as the log counts them, read afresh (another process may have added some). */
export async function usersOf(ctx: Context, kind: Kind, id: string): Promise<readonly string[]> {
  const key = usageKey(kind, id);
  ctx.forget(usageAggregate, key);
  return (await ctx.load(usageAggregate, key)).state?.users ?? [];
}
