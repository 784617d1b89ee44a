// What verifyLogin2FA needs besides the pin: auth.login with the password for that account, minutes
// before. The spec makes verifyLogin2FA's `id` the account id, which is no secret; without this, a
// pin alone signed in. Kept in the log on a stream of the account's own, reopened by each password
// sign-in and used once, so any API process can check it and only one can use it.
import { openChallenge, sessionAggregate, type Session } from '@berth/shared/domain/session/session';
import type { Context } from '../context.ts';

const CHALLENGE_LIFETIME_MS = 5 * 60_000;

const challengeIdOf = (accountId: string) => `sign-in-${accountId}`;

/** After the password: the account may finish signing in with a pin, once, within minutes. */
export async function startSignInChallenge(ctx: Context, accountId: string): Promise<void> {
  const sessionId = challengeIdOf(accountId);
  const expiresAt = new Date(Date.parse(ctx.now) + CHALLENGE_LIFETIME_MS).toISOString();
  await ctx.execute(sessionAggregate, sessionId, {
    type: 'IssueSignInChallenge', data: { sessionId, accountId, secretHash: null, createdAt: ctx.now, expiresAt },
  });
}

export interface SignInChallenge {
  readonly session: Session;
  /** Marks the challenge used, decided against the log: of two uses at once, one is refused. */
  readonly use: () => Promise<unknown>;
}

/**
 * The open sign-in of `accountId`; UNAUTHORIZED (sign in again) when there is none, or it was used,
 * expired, or made before `validFrom`, the account's last password change (ms): with the old password.
 */
export async function findSignInChallenge(ctx: Context, accountId: string, validFrom: number | null): Promise<SignInChallenge> {
  const use = { sessionId: challengeIdOf(accountId), at: ctx.now, validFrom };
  const { state } = await ctx.load(sessionAggregate, use.sessionId);
  return {
    session: openChallenge(state, use),
    use: () => ctx.execute(sessionAggregate, use.sessionId, { type: 'UseSignInChallenge', data: use }),
  };
}
