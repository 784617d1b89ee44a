import type { contract } from '@berth/shared/contract/index';
import { accountAggregate, mustNotHaveTwoFactor, type Account } from '@berth/shared/domain/account/account';
import { demotes, mustKeepAnAdmin } from '@berth/shared/domain/account/first-admin';
import { sessionAggregate } from '@berth/shared/domain/session/session';
import { hashPassword, verifyPassword } from '@berth/shared/crypto/password';
import { characterCount } from '@berth/shared/contract/schema';
import { badRequest, conflict, DomainError, forbidden, unauthorized } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import type { Context } from '../context.ts';
import { retireSetupToken } from '../auth/setup-token.ts';
import { firstAdmin } from '../auth/first-admin.ts';
import { claim } from './reservations.ts';
import { guarded } from '../auth/throttle.ts';
import { issueLoginToken, newApiToken, sha256 } from '../auth/tokens.ts';
import { acceptedStep, newTwoFactorSetup } from '../auth/two-factor.ts';
import { findSignInChallenge, startSignInChallenge } from '../auth/sign-in-challenge.ts';
import { accountAnswer, accountView, changeEmail, claimEmail, normalEmail } from './accounts.ts';
import type { GroupHandlers } from './kit.ts';
import { mustKeepCreatedAt } from './created-at.ts';

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
  const now = ctx.infra.clock.now();
  const step = await acceptedStep(secret, pin, now, account.lastPinStep);
  if (step === null) {
    // A pin is accepted once: the one just used (turning two-factor on, say) is still on the screen.
    const used = account.lastPinStep !== null && (await acceptedStep(secret, pin, now, null) ?? Infinity) <= account.lastPinStep;
    throw badRequest('pin', used ? 'was already used: wait for the next one your authenticator shows' : 'is not valid');
  }
  await ctx.execute(accountAggregate, account.id, { type: 'UseTwoFactorPin', data: { id: account.id, step } });
}

/**
 * What weakens an account's protection (two-factor off, a new password or email) needs a login
 * made with the password within minutes: an API token, or a stolen old login, never qualifies.
 */
function mustHaveSignedInRecently(ctx: Context, purpose: string): void {
  const signedInAt = ctx.actor!.signedInAt;
  if (signedInAt === null || ctx.infra.clock.now().getTime() - signedInAt > FRESH_SIGN_IN_MS) {
    throw forbidden(`Sign in again (with your password, and pin if two-factor is on) ${purpose}`);
  }
}

/**
 * The account finishing a sign-in, read afresh (another process may have changed its password): its
 * pin is recorded only on it as read, so a password changed meanwhile refuses the sign-in. Null when removed.
 */
async function accountSigningIn(ctx: Context, id: string): Promise<Account | null> {
  try {
    return await ctx.readToChange(accountAggregate, id, 'id');
  } catch (error) {
    if (error instanceof DomainError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
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

  login: async (input, ctx) => {
    const account = await accountByEmail(ctx, input.email);
    // Counted on the account its pins count on; an unknown email on itself, answered alike.
    return guarded(ctx, 'sign-in', { account: account?.id ?? `email:${normalEmail(input.email)}` }, async () => {
      const valid = await verifyPassword(input.password, account?.passwordHash ?? await DECOY_HASH);
      if (!account || account.status !== 'active' || !valid) throw unauthorized(INVALID_LOGIN);
      if (account.is2FAEnabled) {
        await startSignInChallenge(ctx, account.id);
        return { is2FAEnabled: true, id: account.id };
      }
      return { token: await issueLoginToken(ctx.infra, account.id) };
    });
  },

  // `id` is the account (the spec's), and it must have given its password just before: a pin alone signs no one in.
  verifyLogin2FA: async (input, ctx) => {
    const account = await accountSigningIn(ctx, input.id);
    // Refused before the guard, as any challenge that is not open: a sign-in begun with a password changed since is over.
    const challenge = await findSignInChallenge(ctx, input.id, account?.tokensValidFrom ?? null);
    const accountId = challenge.session.accountId;
    return guarded(ctx, 'sign-in', { account: accountId }, async () => {
      if (!account || account.status !== 'active' || !account.is2FAEnabled || !account.twoFactorSecret) {
        throw unauthorized('Two-factor is no longer on for this account: sign in again with your email and password');
      }
      await usePin(ctx, account, input.pin, ctx.secrets.open(account.twoFactorSecret));
      await challenge.use();
      return { token: await issueLoginToken(ctx.infra, account.id) };
    });
  },

  createUser: (input, ctx) => guarded(ctx, 'sign-in', { account: input.id }, async () => {
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
    const turnsTwoFactorOff = mustBeSettable(account, input);
    if (turnsTwoFactorOff) mustHaveSignedInRecently(ctx, 'to turn two-factor off');
    await updateProfile(ctx, account, input);
    if (turnsTwoFactorOff) await disableTwoFactor(ctx, account);
    return accountAnswer(ctx, account.id);
  },

  updateByAdmin: async (input, ctx) => {
    // A role is changed on the account as the log holds it now, and only if it is still so when the change is appended.
    const account = input.rol === undefined
      ? await ctx.mustLoad(accountAggregate, input.id, 'id')
      : await ctx.readToChange(accountAggregate, input.id, 'id');
    if (input.rol !== undefined && input.rol !== account.rol && account.id === ctx.actor!.id) {
      throw conflict('cannot be changed by an admin on its own account', 'rol');
    }
    // Before anything is appended: a refused demotion changes nothing else the request asked for either.
    if (demotes(account, input.rol)) mustKeepAnAdmin(account, await firstAdmin(ctx));
    // An admin may turn off the two-factor of an account locked out of it; its own, as its owner may.
    const turnsTwoFactorOff = mustBeSettable(account, input);
    if (turnsTwoFactorOff && account.id === ctx.actor!.id) mustHaveSignedInRecently(ctx, 'to turn two-factor off');
    await updateProfile(ctx, account, input);
    if (turnsTwoFactorOff) await disableTwoFactor(ctx, account);
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

  verify2FASetup: async (input, ctx) => {
    const account = await self(ctx);
    mustNotHaveTwoFactor(account); // before the guard and the pin: the same answer whatever the pin, nothing appended
    return guarded(ctx, 'verify2FASetup', { account: account.id }, () => enableTwoFactor(ctx, account, input));
  },

  disable2FA: async (_input, ctx) => {
    // The operation takes no payload, so "a fresh pin or the password" is a login made moments ago.
    mustHaveSignedInRecently(ctx, 'to turn two-factor off');
    const account = await self(ctx);
    await disableTwoFactor(ctx, account);
    return accountAnswer(ctx, account.id);
  },
};

const disableTwoFactor = (ctx: Context, account: Account) =>
  ctx.execute(accountAggregate, account.id, { type: 'DisableTwoFactor', data: { id: account.id } });

type SetByBerth = { secret?: string | null; token?: string | null; is2FAEnabled?: boolean; createdAt?: string };

/**
 * The account fields Berth sets itself, as an update may carry them: sent back as they were read,
 * they change nothing. Two-factor may be turned off this way, never on: a pin must prove the
 * secret (auth.verify2FASetup). Answers whether the update turns two-factor off.
 */
function mustBeSettable(account: Account, input: SetByBerth): boolean {
  mustKeepCreatedAt(input.createdAt, account.createdAt);
  if (input.secret != null) throw badRequest('secret', 'cannot be set here: the two-factor secret is set by auth.verify2FASetup, which checks a pin for it');
  if (input.token != null) throw badRequest('token', 'cannot be set: tokens are made by Berth (invitations, logins, auth.generateToken)');
  if (input.is2FAEnabled === true && !account.is2FAEnabled) {
    throw badRequest('is2FAEnabled', 'cannot be set here: two-factor is turned on by auth.verify2FASetup, which checks a pin for the secret');
  }
  return input.is2FAEnabled === false && account.is2FAEnabled;
}

/** Stores the secret only if the pin is valid for it. */
async function enableTwoFactor(ctx: Context, account: Account, input: { pin: string; secret: string }) {
  const step = await acceptedStep(input.secret, input.pin, ctx.infra.clock.now(), null);
  if (step === null) throw badRequest('pin', 'is not valid for this secret');
  await ctx.execute(accountAggregate, account.id, {
    type: 'EnableTwoFactor', data: { id: account.id, secret: ctx.secrets.seal(input.secret), step },
  });
  return accountAnswer(ctx, account.id);
}

type ProfileInput = { email: string | null; password: string | null; image?: string; rol?: 'admin' | 'user' };

/**
 * A new password ends every token of the account issued before it (login and API tokens), so a
 * stolen one stops working; a person changing their own keeps the login they changed it from.
 */
async function updateProfile(ctx: Context, account: Account, input: ProfileInput): Promise<void> {
  if (input.password !== null && characterCount(input.password) < 8) throw badRequest('password', 'must be at least 8 characters long');
  const email = input.email && normalEmail(input.email) !== account.email ? normalEmail(input.email) : undefined;
  const actor = ctx.actor!;
  const ownAccount = actor.id === account.id;
  if (ownAccount && (input.password !== null || email !== undefined)) mustHaveSignedInRecently(ctx, 'to change your password or email');
  const passwordHash = input.password === null ? undefined : await hashPassword(input.password);
  const endsTokens = passwordHash !== undefined && {
    tokensValidFrom: Date.parse(ctx.now),
    keptSessionId: ownAccount && actor.sessionKind === 'login' ? actor.sessionId : null,
  };
  await changeEmail(ctx, account, email, () => ctx.execute(accountAggregate, account.id, {
    type: 'UpdateProfile',
    data: {
      id: account.id,
      ...(email !== undefined && { email }),
      ...(passwordHash !== undefined && { passwordHash }),
      ...endsTokens,
      ...(input.image !== undefined && { image: input.image }),
      ...(input.rol !== undefined && { rol: input.rol }),
    },
  }));
}
