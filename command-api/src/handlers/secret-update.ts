// A secret given again on update: sealing it afresh would give a new ciphertext every time (a
// random nonce), so an update repeating the same secret would look like a change and append an event.
import { isSealed, type Sealed } from '@berth/shared/crypto/secrets';
import { badRequest } from '@berth/shared/errors';
import { carriesCredentials } from '@berth/shared/domain/git-url';
import { mustBeEnvText } from '@berth/shared/domain/env-text';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { newId } from '@berth/shared/ids';
import type { Context } from '../context.ts';
import { withDeployToken } from '../deploy-token.ts';
import type { Handler } from './kit.ts';

/** The sealed value to record for `plain`: the current one when it already holds that secret. */
export function resealed(ctx: Context, current: unknown, plain: string): Sealed {
  return isSealed(current) && ctx.secrets.open(current) === plain ? current : ctx.secrets.seal(plain);
}

/** A nullable secret as given: left out stays, null or empty clears, a value is stored sealed. */
export const sealedOrNull = (ctx: Context, given: string | null | undefined, stored: unknown) =>
  given === undefined ? undefined : given ? resealed(ctx, stored, given) : null;

/**
 * A service's `env` as recorded: its text holds the service's secrets (passwords a template
 * generated, tokens a user set), so it is sealed whole, reusing the stored sealed copy when the text
 * is the same. Left out stays; null and "" are kept as given, since an empty text hides nothing and
 * answers show it as it was sent. A changed text must read as the deployer reads it (400 naming
 * `env` otherwise); the stored text sent back unchanged is not checked, so a record saved before
 * the check stays editable and deploys, or fails, as it did.
 */
export function sealedEnv<T extends string | null | undefined>(ctx: Context, given: T, stored: unknown): Sealed | Exclude<T, string> | '' {
  // Falsy here is undefined, null or "": as given (the cast only says so to the compiler).
  if (!given) return given as Exclude<T, string> | '';
  if (ctx.secrets.reveal(stored) !== given) mustBeEnvText(given);
  return resealed(ctx, stored, given);
}

/** A git URL as recorded: sealed when it carries credentials (its userinfo), as given otherwise. */
export const sealedGitUrl = (ctx: Context, given: string | null | undefined, stored: unknown) =>
  given && carriesCredentials(given) ? resealed(ctx, stored, given) : given;

/** A deploy token is the push's only credential: a chosen one is as long as a generated one (newId's 21), in the same letters. */
const CHOSEN_TOKEN = /^[A-Za-z0-9_-]{21,}$/;

/**
 * A deploy token chosen on update, sealed as `sealedOrNull` seals it, once checked: 21 or more of
 * [A-Za-z0-9_-]. Whether another service holds it is decided when it is claimed (withDeployToken).
 */
export function chosenToken(ctx: Context, given: string | null | undefined, stored: unknown): Sealed | null | undefined {
  if (given && !(isSealed(stored) && ctx.secrets.open(stored) === given) && !CHOSEN_TOKEN.test(given)) {
    throw badRequest('refreshToken', 'must be 21 or more letters, digits, "_" or "-", as the tokens Berth makes');
  }
  return sealedOrNull(ctx, given, stored);
}

/**
 * `refreshToken`: a new token made by Berth, claimed before the record takes it (sealed, by the
 * change `changing` makes with it), and the one it replaces let go after.
 */
export const refreshedToken = <I extends Record<string, unknown>>(
  aggregate: AnyAggregate, changing: (refreshToken: Sealed) => Handler<I>,
): Handler<I> => async (input, ctx) => {
  const id = String(input[aggregate.idField]);
  // Read to change: the token let go is this record's, so a change made meanwhile refuses this one.
  const current = await ctx.readToChange(aggregate, id, aggregate.idField) as { refreshToken?: unknown };
  const token = newId();
  return withDeployToken(ctx, aggregate, id, current.refreshToken, token, () => changing(ctx.secrets.seal(token))(input, ctx));
};
