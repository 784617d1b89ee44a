// What the account handlers share: email claims, account reads as answers show them.
import { accountAggregate, type Account } from '@berth/shared/domain/account/account';
import type { Doc } from '@berth/shared/ports/read-store';
import type { Context } from '../context.ts';
import { claim, moveName, release } from './reservations.ts';

export const normalEmail = (email: string) => email.trim().toLowerCase();

export const claimEmail = (ctx: Context, email: string, owner: string) => claim(ctx, 'email', email, owner);

export const releaseEmail = (ctx: Context, email: string, owner: string) => release(ctx, 'email', email, owner);

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
  return moveName(ctx, 'email', account.email, email ? normalEmail(email) : undefined, account.id, apply);
}
