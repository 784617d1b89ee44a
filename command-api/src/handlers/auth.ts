import type { contract } from '@berth/shared/contract/index';
import { accountAggregate, type Account } from '@berth/shared/domain/account/account';
import { sessionAggregate } from '@berth/shared/domain/session/session';
import { hashPassword, verifyPassword } from '@berth/shared/crypto/password';
import { badRequest, conflict, forbidden, unauthorized } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import type { Context } from '../context.ts';
import { retireSetupToken } from '../auth/setup-token.ts';
import { claim } from './reservations.ts';
import { guarded } from '../auth/throttle.ts';
import { issueLoginToken, newApiToken, sha256 } from '../auth/tokens.ts';
import { acceptedStep, newTwoFactorSetup } from '../auth/two-factor.ts';
import { accountAnswer, accountView, changeEmail, claimEmail, normalEmail } from './accounts.ts';
import type { GroupHandlers } from './kit.ts';

// Compared against when the email is unknown, so a miss takes as long as a wrong password.
const DECOY_HASH = hashPassword(newId());
const INVALID_LOGIN = 'Invalid email or password';
/** How recent a sign-in must be for the operations that weaken an account's protection. */
const FRESH_SIGN_IN_MS = 5 * 60_000;

async function accountByEmail(ctx: Context, email: string): Promise<Account | null> {
  const [account] = await ctx.infra.readStore.find(accountAggregate.name, 'email', normalEmail(email));
  return (account as Account | undefined) ?? null;
}

/** Checks a pin against the account's secret, then records its step so it is never accepted again. */
async function usePin(ctx: Context, account: Account, pin: string, secret: string): Promise<void> {
  const step = await acceptedStep(secret, pin, ctx.infra.clock.now(), account.lastPinStep);
  if (step === null) throw badRequest('pin', 'the pin is not valid');
  await ctx.execute(accountAggregate, account.id, { type: 'UseTwoFactorPin', data: { id: account.id, step } });
}

const self = (ctx: Context) => ctx.mustLoad(accountAggregate, ctx.actor!.id, 'id');

export const auth: GroupHandlers<typeof contract.auth> = {
  createAdmin: async (input, ctx) => {
    const id = ctx.newId(accountAggregate);
    const email = normalEmail(input.email);
    const passwordHash = await hashPassword(input.password);
    await claim(ctx, 'instance', 'admin', id, 'admin').catch(() => { throw conflict('An admin already exists'); });
    await claimEmail(ctx, email, id);
    const { after } = await ctx.execute(accountAggregate, id, { type: 'CreateAdmin', data: { id, email, createdAt: ctx.now, passwordHash } });
    retireSetupToken(ctx.infra);
    return accountView(ctx, after);
  },

  login: (input, ctx) => guarded(ctx, 'login', { account: normalEmail(input.email) }, async () => {
    const account = await accountByEmail(ctx, input.email);
    const valid = await verifyPassword(input.password, account?.passwordHash ?? await DECOY_HASH);
    if (!account || account.status !== 'active' || !valid) throw unauthorized(INVALID_LOGIN);
    if (account.is2FAEnabled) return { is2FAEnabled: true, id: account.id };
    return { token: await issueLoginToken(ctx.infra, account.id) };
  }),

  verifyLogin2FA: (input, ctx) => guarded(ctx, 'verifyLogin2FA', { account: input.id }, async () => {
    const { state: account } = await ctx.load(accountAggregate, input.id);
    if (!account || !account.is2FAEnabled || !account.twoFactorSecret) throw badRequest('pin', 'the pin is not valid');
    await usePin(ctx, account, input.pin, ctx.secrets.open(account.twoFactorSecret));
    return { token: await issueLoginToken(ctx.infra, account.id) };
  }),

  createUser: (input, ctx) => guarded(ctx, 'createUser', { account: input.id }, async () => {
    const passwordHash = await hashPassword(input.password);
    const { after } = await ctx.execute(accountAggregate, input.id, {
      type: 'AcceptInvitation', data: { id: input.id, tokenHash: sha256(input.token), passwordHash, now: ctx.now },
    });
    return accountView(ctx, after);
  }),

  get: async (_input, ctx) => accountAnswer(ctx, ctx.actor!.id),

  logout: async (_input, ctx) => {
    const actor = ctx.actor!;
    await ctx.execute(sessionAggregate, actor.sessionId, {
      type: 'RevokeSession', data: { sessionId: actor.sessionId, accountId: actor.id, kind: actor.sessionKind, at: ctx.now },
    });
    return true;
  },

  verifyToken: async () => true,

  update: async (input, ctx) => {
    const account = await self(ctx);
    if (input.id !== undefined && input.id !== account.id) throw forbidden('auth.update changes only your own account');
    if (input.rol !== undefined && input.rol !== account.rol) throw forbidden('A role is changed by an admin (auth.updateByAdmin)');
    await updateProfile(ctx, account, input);
    return accountAnswer(ctx, account.id);
  },

  updateByAdmin: async (input, ctx) => {
    const account = await ctx.mustLoad(accountAggregate, input.id, 'id');
    if (input.rol !== undefined && input.rol !== account.rol && account.id === ctx.actor!.id) {
      throw conflict('An admin cannot change its own role', 'rol');
    }
    await updateProfile(ctx, account, input);
    return accountAnswer(ctx, account.id);
  },

  one: async (input, ctx) => accountAnswer(ctx, input.id),

  generateToken: async (_input, ctx) => {
    const { sessionId, token, secretHash } = newApiToken();
    await ctx.execute(sessionAggregate, sessionId, {
      type: 'IssueApiToken', data: { sessionId, accountId: ctx.actor!.id, secretHash, createdAt: ctx.now },
    });
    return { token };
  },

  generate2FASecret: async (_input, ctx) => newTwoFactorSetup(ctx.actor!.email),

  verify2FASetup: (input, ctx) => guarded(ctx, 'verify2FASetup', { account: ctx.actor!.id }, async () => {
    const account = await self(ctx);
    const step = await acceptedStep(input.secret, input.pin, ctx.infra.clock.now(), null);
    if (step === null) throw badRequest('pin', 'the pin is not valid for this secret');
    await ctx.execute(accountAggregate, account.id, {
      type: 'EnableTwoFactor', data: { id: account.id, secret: ctx.secrets.seal(input.secret), step },
    });
    return accountAnswer(ctx, account.id);
  }),

  disable2FA: async (_input, ctx) => {
    // The operation takes no payload, so "a fresh pin or the password" is a login made moments ago.
    const signedInAt = ctx.actor!.signedInAt;
    if (signedInAt === null || ctx.infra.clock.now().getTime() - signedInAt > FRESH_SIGN_IN_MS) {
      throw forbidden('Sign in again (with your password and pin) to turn two-factor off');
    }
    const account = await self(ctx);
    await ctx.execute(accountAggregate, account.id, { type: 'DisableTwoFactor', data: { id: account.id } });
    return accountAnswer(ctx, account.id);
  },
};

type ProfileInput = { email: string | null; password: string | null; image?: string; rol?: 'admin' | 'user' };

async function updateProfile(ctx: Context, account: Account, input: ProfileInput): Promise<void> {
  if (input.password !== null && input.password.length < 8) throw badRequest('password', 'must be at least 8 characters long');
  const passwordHash = input.password === null ? undefined : await hashPassword(input.password);
  const email = input.email ? normalEmail(input.email) : undefined;
  await changeEmail(ctx, account, email, () => ctx.execute(accountAggregate, account.id, {
    type: 'UpdateProfile',
    data: {
      id: account.id,
      ...(email !== undefined && { email }),
      ...(passwordHash !== undefined && { passwordHash }),
      ...(input.image !== undefined && { image: input.image }),
      ...(input.rol !== undefined && { rol: input.rol }),
    },
  }));
}
