// A secret given again on update: sealing it afresh would give a new ciphertext every time (a
// random nonce), so an update repeating the same secret would look like a change and append an event.
import { isSealed, type Sealed } from '@berth/shared/crypto/secrets';
import type { Context } from '../context.ts';

/** The sealed value to record for `plain`: the current one when it already holds that secret. */
export function resealed(ctx: Context, current: unknown, plain: string): Sealed {
  return isSealed(current) && ctx.secrets.open(current) === plain ? current : ctx.secrets.seal(plain);
}

/** A nullable secret as given: left out stays, null or empty clears, a value is stored sealed. */
export const sealedOrNull = (ctx: Context, given: string | null | undefined, stored: unknown) =>
  given === undefined ? undefined : given ? resealed(ctx, stored, given) : null;
