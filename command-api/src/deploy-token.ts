// A service's deploy token, the only credential of a push to deploy: kept sealed in its record, and
// claimed in the log (scope deployToken) as a keyed digest, never the token, so that of two services
// taking one token at once only one wins, and a push finds its service without opening every record.
// Tokens saved before the claims have none: those are still found by opening each record's.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isSealed } from '@berth/shared/crypto/secrets';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { reservationAggregate, reservationKey, type Reservation } from '@berth/shared/domain/reservation/reservation';
import { conflict } from '@berth/shared/errors';
import type { Doc } from '@berth/shared/ports/read-store';
import { load } from '@berth/shared/runtime/execute';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { deriveKey } from '@berth/shared/runtime/keys';
import type { Context } from './context.ts';
import { moveNames, mustBeFree, release } from './handlers/reservations.ts';

/** A kind of service with a deploy token (application, compose): its collection and id field. */
export type TokenKind = Pick<AnyAggregate, 'name' | 'idField'>;

const SCOPE = 'deployToken';
const FIELD = 'refreshToken';
const TAKEN = 'is the deploy token of another service: choose another';

// The instance key itself is not handed to the API, only keys derived from it: this one is derived
// again, for this purpose alone, from the token-signing key.
const digestKeys = new WeakMap<Infrastructure, Uint8Array>();

/** HMAC-SHA256 of `token`: the log holds this, which opens nothing and cannot be tried offline without the instance key. */
export function tokenDigest(infra: Infrastructure, token: string): string {
  let key = digestKeys.get(infra);
  if (!key) digestKeys.set(infra, key = deriveKey(Buffer.from(infra.tokenKey), 'deploy-token'));
  return createHmac('sha256', key).update(token).digest('base64url');
}

/** The reservation key of `kind`'s claim on `token`. */
export const tokenClaimKey = (infra: Infrastructure, kind: TokenKind, token: string) =>
  reservationKey(SCOPE, claimName(infra, kind, token));

const claimName = (infra: Infrastructure, kind: TokenKind, token: string) => `${kind.name}/${tokenDigest(infra, token)}`;
const namesOf = (infra: Infrastructure, kind: TokenKind, token: string | null) => token ? [claimName(infra, kind, token)] : [];
const opened = (infra: Infrastructure, sealed: unknown): string | null => isSealed(sealed) ? infra.secrets.open(sealed) : null;

// Compared as bytes: a token of as many characters but more bytes must not reach timingSafeEqual.
const same = (a: string, b: string) => {
  const [given, known] = [Buffer.from(a), Buffer.from(b)];
  return given.length === known.length && timingSafeEqual(given, known);
};
const holds = (infra: Infrastructure, doc: Doc, token: string) => {
  const sealed = doc.refreshToken;
  return isSealed(sealed) && same(infra.secrets.open(sealed), token);
};

/** A claim refused for being another's says so without its name: the digest is no name to show. */
const refused = () => conflict(TAKEN, FIELD);

/** The record of `kind` holding `token` by opening each record's: how a token saved before the claims is found. */
const openingEach = async (infra: Infrastructure, kind: TokenKind, token: string): Promise<Doc | null> =>
  (await infra.readStore.all(kind.name)).find((doc) => holds(infra, doc, token)) ?? null;

/** The record of `kind` whose deploy token is `token`, or null: by its claim, else by opening each record's. */
export async function holderOfToken<T>(infra: Infrastructure, kind: TokenKind, token: string): Promise<T | null> {
  const { state } = await load(infra.eventStore, reservationAggregate, tokenClaimKey(infra, kind, token));
  const owner = (state as Reservation | null)?.owner;
  const claimed = owner ? await infra.readStore.get(kind.name, owner) : null;
  // A claim whose record does not hold the token yet (the change is on its way) is no answer.
  const found = claimed && holds(infra, claimed, token) ? claimed : await openingEach(infra, kind, token);
  return found as T | null;
}

/**
 * Applies a change giving the service `id` of `kind` the token `next` (plain; null for none,
 * undefined to leave it) in place of its sealed `current`: the new token is claimed first, CONFLICT
 * naming refreshToken when another service of the kind holds it, and the one it loses is let go
 * after. An update checks a token it was given with mayTakeToken first.
 */
export async function withDeployToken<T>(
  ctx: Context, kind: TokenKind, id: string, current: unknown, next: string | null | undefined, apply: () => Promise<T>,
): Promise<T> {
  const was = opened(ctx.infra, current);
  if (next === undefined || next === was) return apply();
  return moveNames(ctx, SCOPE, namesOf(ctx.infra, kind, was), namesOf(ctx.infra, kind, next), id, apply, FIELD, refused);
}

/**
 * Refuses now, appending nothing, what giving the service the token `next` would refuse (see
 * withDeployToken). A token the caller `chosen` may be one saved before the claims, unclaimed: the
 * records are looked in first, which no race can fool, as no token is taken without a claim any more.
 */
export async function mayTakeToken(
  ctx: Context, kind: TokenKind, id: string, current: unknown, next: string | null | undefined, chosen: boolean,
): Promise<void> {
  if (!next || next === opened(ctx.infra, current)) return;
  if (chosen) {
    const holder = await openingEach(ctx.infra, kind, next);
    if (holder && holder[kind.idField] !== id) throw conflict(TAKEN, FIELD);
  }
  await mustBeFree(ctx, SCOPE, claimName(ctx.infra, kind, next), id, FIELD, refused);
}

/** Lets go of a removed service's token (one saved before the claims has nothing to let go). */
export async function releaseDeployToken(ctx: Context, kind: TokenKind, id: string, current: unknown): Promise<void> {
  const token = opened(ctx.infra, current);
  if (token) await release(ctx, SCOPE, claimName(ctx.infra, kind, token), id);
}
