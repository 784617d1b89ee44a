import type { contract } from '@berth/shared/contract/index';
import { accountAggregate, type Account } from '@berth/shared/domain/account/account';
import { conflict, notFound } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import type { Context } from '../context.ts';
import { sha256 } from '../auth/tokens.ts';
import { accountAnswer, accountView, claimEmail, normalEmail, releaseEmail } from './accounts.ts';
import type { GroupHandlers } from './kit.ts';
import { forgeAdmin } from './admin-forge.ts';

async function theAdmin(ctx: Context) {
  const [admin] = await ctx.infra.readStore.find(accountAggregate.name, 'rol', 'admin');
  if (!admin) throw notFound('id', 'Admin');
  return accountView(ctx, admin);
}

export const admin: GroupHandlers<typeof contract.admin> = {
  ...forgeAdmin,
  one: async (_input, ctx) => theAdmin(ctx),

  createUserInvitation: async (input, ctx) => {
    const id = ctx.newId(accountAggregate);
    const email = normalEmail(input.email);
    const token = newId(32);
    const expiresAt = new Date(Date.parse(ctx.now) + ctx.infra.config.invitationLifetimeSeconds * 1000).toISOString();
    await claimEmail(ctx, email, id);
    await ctx.execute(accountAggregate, id, {
      type: 'InviteUser', data: { id, email, createdAt: ctx.now, invitationTokenHash: sha256(token), invitationExpiresAt: expiresAt },
    });
    return { id, token, expiresAt };
  },

  getUserByToken: async (input, ctx) => {
    const [found] = await ctx.infra.readStore.find(accountAggregate.name, 'invitationTokenHash', sha256(input.token));
    const account = found as Account | undefined;
    if (!account || account.status !== 'invited') throw notFound('token', 'Invitation');
    return { id: account.id, email: account.email, expiresAt: account.invitationExpiresAt, isExpired: (account.invitationExpiresAt ?? '') <= ctx.now };
  },

  removeUser: async (input, ctx) => {
    const account = await ctx.mustLoad(accountAggregate, input.authId, 'authId');
    if (account.rol === 'admin') throw conflict('The admin account cannot be removed', 'authId');
    const answer = accountView(ctx, account);
    // Its tokens stop working with it: every request checks that its account still exists.
    await ctx.execute(accountAggregate, account.id, { type: 'RemoveAccount', data: { id: account.id } });
    await releaseEmail(ctx, account.email, account.id);
    return answer;
  },

  assignPermissions: async (input, ctx) => {
    const { userId, ...permissions } = input;
    await ctx.execute(accountAggregate, userId, { type: 'AssignPermissions', data: { id: userId, permissions } });
    return (await accountAnswer(ctx, userId, 'userId')).permissions;
  },
};
