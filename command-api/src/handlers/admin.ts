import type { contract } from '@berth/shared/contract/index';
import { accountAggregate, isExpiredInvitation, type Account } from '@berth/shared/domain/account/account';
import { mustNotBeFirstAdmin } from '@berth/shared/domain/account/first-admin';
import { conflict, DomainError, notFound } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import type { Context } from '../context.ts';
import { sha256 } from '../auth/tokens.ts';
import { firstAdminId } from '../auth/setup-token.ts';
import { accountAnswer, accountView, claimEmail, normalEmail, releaseEmail } from './accounts.ts';
import type { GroupHandlers } from './kit.ts';
import { projectAggregate } from '@berth/shared/domain/project/project';
import { SERVICE_KINDS } from '@berth/shared/domain/service-kinds';
import type { Permissions } from '@berth/shared/domain/account/permissions';
import { forgeAdmin } from './admin-forge.ts';
import { holderOf } from './reservations.ts';

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
    await claimEmail(ctx, email, id).catch(async (error: unknown) => {
      if (!await removedExpiredInvitation(ctx, email)) throw error;
      await claimEmail(ctx, email, id);
    });
    await ctx.execute(accountAggregate, id, {
      type: 'InviteUser', data: { id, email, createdAt: ctx.now, invitationTokenHash: sha256(token), invitationExpiresAt: expiresAt },
    });
    return { id, token, expiresAt };
  },

  getUserByToken: async (input, ctx) => {
    const [found] = await ctx.infra.readStore.find(accountAggregate.name, 'invitationTokenHash', sha256(input.token));
    const account = found as Account | undefined;
    if (!account || account.status !== 'invited') throw notFound('token', 'Invitation');
    return { id: account.id, email: account.email, expiresAt: account.invitationExpiresAt, isExpired: isExpiredInvitation(account, ctx.now) };
  },

  removeUser: async (input, ctx) => {
    // Removed only as read (an email moved or a role given meanwhile refuses it): the email let go is the one it has.
    const account = await ctx.readToChange(accountAggregate, input.authId, 'authId');
    mustNotBeFirstAdmin(account, await firstAdminId(ctx.infra));
    const answer = accountView(ctx, account);
    // Its tokens stop working with it: every request checks that its account still exists.
    await ctx.execute(accountAggregate, account.id, { type: 'RemoveAccount', data: { id: account.id } }).catch((error: unknown) => {
      throw changedMeanwhile(error) ? conflict('was changed by another request while it was being removed: read it again and retry', 'authId') : error;
    });
    await releaseEmail(ctx, account.email, account.id);
    return answer;
  },

  assignPermissions: async (input, ctx) => {
    const { userId, ...permissions } = input;
    const account = await ctx.mustLoad(accountAggregate, userId, 'userId');
    await mustNameExisting(ctx, account.permissions, permissions);
    await ctx.execute(accountAggregate, userId, { type: 'AssignPermissions', data: { id: userId, permissions } });
    return (await accountAnswer(ctx, userId, 'userId')).permissions;
  },
};

/**
 * Removes the invitation that holds `email` when it expired unaccepted, letting the email go: false,
 * nothing appended, when another account holds it. Its decider checks the expiry on the log as it
 * is, so an invitation accepted meanwhile, or removed by a new invitation made at once, is refused.
 */
async function removedExpiredInvitation(ctx: Context, email: string): Promise<boolean> {
  const holder = await holderOf(ctx, 'email', email);
  const { state } = holder === null ? { state: null } : await ctx.load(accountAggregate, holder);
  if (!state || !isExpiredInvitation(state, ctx.now)) return false;
  await ctx.execute(accountAggregate, state.id, { type: 'RemoveExpiredInvitation', data: { id: state.id, now: ctx.now } });
  await releaseEmail(ctx, email, state.id);
  return true;
}

/** The refusal of a change to an account read to change (readToChange) that another request changed first: it names `id`. */
const changedMeanwhile = (error: unknown) => error instanceof DomainError && error.code === 'CONFLICT' && error.issues[0]?.path === 'id';

const isService = async (ctx: Context, id: string) => {
  for (const { aggregate } of SERVICE_KINDS) if ((await ctx.load(aggregate, id)).state) return true;
  return false;
};

/**
 * Ids added to the access lists must name a project or service the log holds. Those already
 * there may have outlived theirs, so a list sent back as it was read is not refused.
 */
async function mustNameExisting(ctx: Context, before: Permissions, after: Pick<Permissions, 'accesedProjects' | 'accesedServices'>) {
  for (const id of after.accesedProjects.filter((id) => !before.accesedProjects.includes(id))) {
    await ctx.mustLoad(projectAggregate, id, 'accesedProjects');
  }
  for (const id of after.accesedServices.filter((id) => !before.accesedServices.includes(id))) {
    if (!await isService(ctx, id)) throw notFound('accesedServices', `Service ${id}`);
  }
}
