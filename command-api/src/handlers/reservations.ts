// A name that must be unique across records (an appName, an email, the one admin) is claimed in
// a reservation stream before the record that carries it is written, and let go after.
import { reservationAggregate, reservationKey } from '@berth/shared/domain/reservation/reservation';
import type { Context } from '../context.ts';

type Scope = Parameters<typeof reservationKey>[0];

/** Claims `name` for `owner`; CONFLICT naming `field` when another owner holds it. */
export async function claim(ctx: Context, scope: Scope, name: string, owner: string, field: string = scope): Promise<void> {
  const key = reservationKey(scope, name);
  await ctx.execute(reservationAggregate, key, { type: 'Reserve', data: { key, owner, field } });
}

export async function release(ctx: Context, scope: Scope, name: string, owner: string): Promise<void> {
  const key = reservationKey(scope, name);
  await ctx.execute(reservationAggregate, key, { type: 'Release', data: { key, owner } });
}

/**
 * Applies a change that may move a record to another name: the new name is claimed first, then
 * the change is applied, and only then is the old name let go, so a failure leaves the record
 * with a name it owns.
 */
export async function moveName<T>(
  ctx: Context, scope: Scope, current: string, next: string | undefined, owner: string, apply: () => Promise<T>,
): Promise<T> {
  if (next === undefined || next === current) return apply();
  await claim(ctx, scope, next, owner);
  const result = await apply();
  await release(ctx, scope, current, owner);
  return result;
}
