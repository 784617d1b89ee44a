import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { unauthorized } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';

const ALGORITHM = 'HS256';
const API_TOKEN = /^berth_([A-Za-z0-9_-]{21})\.([A-Za-z0-9_-]{43})$/;

export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

export interface LoginClaims {
  readonly accountId: string;
  readonly sessionId: string;
  /** When the password (and pin) were given, in ms since the epoch. */
  readonly issuedAt: number;
}

/** What issuing and checking a login token needs of the instance. */
export type TokenInfra = Pick<Infrastructure, 'clock' | 'tokenKey'> & { readonly config: Pick<Infrastructure['config'], 'tokenLifetimeSeconds'> };

export async function issueLoginToken(infra: TokenInfra, accountId: string): Promise<string> {
  const nowMs = infra.clock.now().getTime();
  // `iatMs`: a password change ends the tokens issued before it, which `iat`'s whole seconds cannot tell.
  return new SignJWT({ iatMs: nowMs })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(accountId)
    .setJti(newId())
    .setIssuedAt(Math.floor(nowMs / 1000))
    // Whole seconds rounded up: a token lives at least its lifetime, never up to a second less.
    .setExpirationTime(Math.ceil(nowMs / 1000) + infra.config.tokenLifetimeSeconds)
    .sign(infra.tokenKey);
}

/**
 * Tokens whose signature was checked, per instance, kept until they expire: the check goes
 * through WebCrypto and costs more than the rest of a query. Revocation is checked every time.
 */
const verified = new WeakMap<TokenInfra, Map<string, LoginClaims & { expiresAt: number }>>();
const MAX_CACHED = 10_000;

/** The claims of a login token; UNAUTHORIZED when it is malformed, forged, of another algorithm or expired. */
export async function verifyLoginToken(infra: TokenInfra, token: string): Promise<LoginClaims & { expiresAt: number }> {
  let cache = verified.get(infra);
  if (!cache) verified.set(infra, (cache = new Map()));
  const known = cache.get(token);
  if (known && known.expiresAt > infra.clock.now().getTime()) return known;
  const claims = await checkSignature(infra, token);
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(token, claims);
  return claims;
}

async function checkSignature(infra: TokenInfra, token: string): Promise<LoginClaims & { expiresAt: number }> {
  try {
    const { payload } = await jwtVerify(token, infra.tokenKey, { algorithms: [ALGORITHM], currentDate: infra.clock.now() });
    if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number'
      || typeof payload.iat !== 'number') throw new Error('claims');
    const issuedAt = typeof payload.iatMs === 'number' ? payload.iatMs : payload.iat * 1000;
    return { accountId: payload.sub, sessionId: payload.jti, issuedAt, expiresAt: payload.exp * 1000 };
  } catch {
    throw unauthorized('Invalid or expired token');
  }
}

/** A new API token: `berth_<sessionId>.<secret>`; only the secret's hash is kept. */
export function newApiToken(): { sessionId: string; token: string; secretHash: string } {
  const sessionId = newId();
  const secret = randomBytes(32).toString('base64url');
  return { sessionId, token: `berth_${sessionId}.${secret}`, secretHash: sha256(secret) };
}

export function parseApiToken(token: string): { sessionId: string; secret: string } | null {
  const match = API_TOKEN.exec(token);
  return match ? { sessionId: match[1]!, secret: match[2]! } : null;
}

export const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
