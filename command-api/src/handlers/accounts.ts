// What the account handlers share: email claims, account reads as answers show them.
import { accountAggregate, type Account } from '@berth/shared/domain/account/account';
import { reservationAggregate, reservationKey } from '@berth/shared/domain/reservation/reservation';
import type { Doc } from '@berth/shared/ports/read-store';
import type { Context } from '../context.ts';

export const normalEmail = (email: string) => email.trim().toLowerCase();

export async function claimEmail(ctx: Context, email: string, owner: string): Promise<void> {
  const key = reservationKey('email', email);
  await ctx.execute(reservationAggregate, key, { type: 'Reserve', data: { key, owner, field: 'email' } });
}

export async function releaseEmail(ctx: Context, email: string, owner: string): Promise<void> {
  const key = reservationKey('email', email);
  await ctx.execute(reservationAggregate, key, { type: 'Release', data: { key, owner } });
}

/** An account as answers show it, with its permissions record in the spec's shape. */
export function accountView(ctx: Context, account: Account | Doc | null): Doc | null {
  const view = ctx.view(accountAggregate, account);
  if (!view) return null;
  return { ...view, permissions: { userId: view.id, ...(view.permissions as object) } };
}

export async function accountAnswer(ctx: Context, id: string, field = 'id'): Promise<Doc> {
  return accountView(ctx, await ctx.mustLoad(accountAggregate, id, field))!;
}

/** Moves an account to a new email: the new one is claimed before the old one is let go. */
export async function changeEmail(ctx: Context, account: Account, email: string | null | undefined, apply: () => Promise<unknown>) {
  const next = email ? normalEmail(email) : undefined;
  if (!next || next === account.email) return apply();
  await claimEmail(ctx, next, account.id);
  await apply();
  await releaseEmail(ctx, account.email, account.id);
}
