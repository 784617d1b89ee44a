// A service's deploy token, the only credential of a push to deploy: kept sealed in its record, and
// claimed in the log (scope deployToken) as a keyed digest, never the token, so that of two services
// taking one token at once only one wins, and a push finds its service without opening every record.
// Tokens saved before the claims had none: the API claims them when it first starts (claimTokensSavedBefore).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isSealed } from '@berth/shared/crypto/secrets';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { reservationAggregate, reservationKey, type Reservation } from '@berth/shared/domain/reservation/reservation';
import { conflict, DomainError } from '@berth/shared/errors';
import type { Doc } from '@berth/shared/ports/read-store';
import { everyEvent } from '@berth/shared/ports/event-store';
import { execute, load } from '@berth/shared/runtime/execute';
import { claimEach, type RunReservation } from '@berth/shared/runtime/claims';
import { newId } from '@berth/shared/ids';
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

/** Says that claimTokensSavedBefore claimed every token saved before the claims (no digest is named so). */
export const ALL_TOKENS_CLAIMED = reservationKey(SCOPE, 'all-tokens-claimed');
const BERTH = 'berth';

/** Each record of `kind` with the deploy token it holds now, folded from the log (the read models may be behind at start). */
async function tokensInLog(infra: Infrastructure, kind: TokenKind & Pick<AnyAggregate, 'evolve'>): Promise<Map<string, string>> {
  const states = new Map<string, unknown>();
  for await (const event of everyEvent((after, limit) => infra.eventStore.readFiltered({ aggregate: kind.name }, after, limit))) {
    states.set(event.stream, kind.evolve(states.get(event.stream) as object | null ?? null, event));
  }
  const tokens = new Map<string, string>();
  for (const state of states.values()) {
    const record = state as Doc | null;
    const token = record && opened(infra, record.refreshToken);
    if (token) tokens.set(String(record[kind.idField]), token);
  }
  return tokens;
}

/**
 * Claims the deploy token of every record saved before the claims (once in a log's life, before the
 * API answers), then says so: every token then has its claim, and a push finds its service by it
 * alone. A token another service claimed already stays that one's: two records saved before the
 * claims may hold one token.
 */
export async function claimTokensSavedBefore(infra: Infrastructure, kinds: ReadonlyArray<TokenKind & Pick<AnyAggregate, 'evolve'>>): Promise<void> {
  if (((await load(infra.eventStore, reservationAggregate, ALL_TOKENS_CLAIMED)).state as Reservation | null)?.owner === BERTH) return;
  const cause = { actorId: null, correlationId: newId(), causationId: null, occurredAt: new Date().toISOString() };
  const run: RunReservation = (aggregate, key, command) => execute(infra.eventStore, aggregate, key, command, cause);
  for (const kind of kinds) {
    for (const [id, token] of await tokensInLog(infra, kind)) {
      await claimEach(run, SCOPE, [claimName(infra, kind, token)], id, FIELD).catch((error: unknown) => {
        // Only another's claim is passed over: any other failure leaves the tokens to be claimed at the next start.
        if (!(error instanceof DomainError && error.issues[0]?.path === FIELD)) throw error;
      });
    }
  }
  await run(reservationAggregate, ALL_TOKENS_CLAIMED, { type: 'Reserve', data: { key: ALL_TOKENS_CLAIMED, owner: BERTH, field: FIELD } });
}

/** The record of `kind` whose deploy token is `token`, or null: by its claim, opening no other record's. */
export async function holderOfToken<T>(infra: Infrastructure, kind: TokenKind, token: string): Promise<T | null> {
  const { state } = await load(infra.eventStore, reservationAggregate, tokenClaimKey(infra, kind, token));
  const owner = (state as Reservation | null)?.owner;
  const claimed = owner ? await infra.readStore.get(kind.name, owner) : null;
  // A claim whose record does not hold the token yet (the change is on its way) is no answer.
  return (claimed && holds(infra, claimed, token) ? claimed : null) as T | null;
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

/** Refuses now, appending nothing, what giving the service the token `next` would refuse (see withDeployToken). */
export async function mayTakeToken(ctx: Context, kind: TokenKind, id: string, current: unknown, next: string | null | undefined): Promise<void> {
  if (!next || next === opened(ctx.infra, current)) return;
  await mustBeFree(ctx, SCOPE, claimName(ctx.infra, kind, next), id, FIELD, refused);
}

/** Lets go of a removed service's token. */
export async function releaseDeployToken(ctx: Context, kind: TokenKind, id: string, current: unknown): Promise<void> {
  const token = opened(ctx.infra, current);
  if (token) await release(ctx, SCOPE, claimName(ctx.infra, kind, token), id);
}
