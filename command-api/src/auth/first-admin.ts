// The first admin as the rules that keep Berth from being left without an admin need it (see
// shared/domain/account/first-admin.ts), read from the log when a request is about to demote an admin.
import { accountAggregate } from '@berth/shared/domain/account/account';
import type { FirstAdmin } from '@berth/shared/domain/account/first-admin';
import type { Context } from '../context.ts';
import { firstAdminId } from './setup-token.ts';

/** Null before there is an admin. Its account is read afresh: another process may have changed its role. */
export async function firstAdmin(ctx: Context): Promise<FirstAdmin | null> {
  const id = await firstAdminId(ctx.infra);
  if (id === null) return null;
  ctx.forget(accountAggregate, id);
  const { state } = await ctx.load(accountAggregate, id);
  return { id, isAdmin: state?.rol === 'admin' };
}
