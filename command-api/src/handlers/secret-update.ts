// A secret given again on update: sealing it afresh would give a new ciphertext every time (a
// random nonce), so an update repeating the same secret would look like a change and append an event.
import { isSealed, type Sealed } from '@berth/shared/crypto/secrets';
import { badRequest, conflict } from '@berth/shared/errors';
import type { Context } from '../context.ts';
import { holderOfToken } from '../deploy-token.ts';

/** The sealed value to record for `plain`: the current one when it already holds that secret. */
export function resealed(ctx: Context, current: unknown, plain: string): Sealed {
  return isSealed(current) && ctx.secrets.open(current) === plain ? current : ctx.secrets.seal(plain);
}

/** A nullable secret as given: left out stays, null or empty clears, a value is stored sealed. */
export const sealedOrNull = (ctx: Context, given: string | null | undefined, stored: unknown) =>
  given === undefined ? undefined : given ? resealed(ctx, stored, given) : null;

/** A deploy token is the push's only credential: a chosen one is as long as a generated one (newId's 21), in the same letters. */
const CHOSEN_TOKEN = /^[A-Za-z0-9_-]{21,}$/;

/**
 * A deploy token chosen on update, sealed as `sealedOrNull` seals it, once checked: 21 or more of
 * [A-Za-z0-9_-], and no other service of the kind holds it (a push deploys the one it finds). A token
 * sent back as the service holds it is not checked again.
 */
export async function chosenToken(
  ctx: Context, service: { collection: string; idField: string; id: string }, given: string | null | undefined, stored: unknown,
): Promise<Sealed | null | undefined> {
  if (!given || (isSealed(stored) && ctx.secrets.open(stored) === given)) return sealedOrNull(ctx, given, stored);
  if (!CHOSEN_TOKEN.test(given)) throw badRequest('refreshToken', 'must be 21 or more letters, digits, "_" or "-", as the tokens Berth makes');
  const holder = await holderOfToken<Record<string, unknown>>(ctx.infra, service.collection, given);
  if (holder && holder[service.idField] !== service.id) throw conflict('Another service has this deploy token: choose another', 'refreshToken');
  return sealedOrNull(ctx, given, stored);
}
