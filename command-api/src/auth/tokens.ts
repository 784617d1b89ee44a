import { SignJWT, jwtVerify } from 'jose';
import type { Role } from '@berth/shared/domain/account/account';
import { unauthorized } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { Actor } from '../context.ts';

const ALGORITHM = 'HS256';

export async function issueToken(infra: Infrastructure, account: { id: string; rol: Role }): Promise<string> {
  const now = Math.floor(infra.clock.now().getTime() / 1000);
  return new SignJWT({ rol: account.rol })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(account.id)
    .setJti(newId())
    .setIssuedAt(now)
    .setExpirationTime(now + infra.config.tokenLifetimeSeconds)
    .sign(infra.tokenKey);
}

/** The actor a bearer token speaks for; UNAUTHORIZED when it is malformed, forged or expired. */
export async function verifyToken(infra: Infrastructure, token: string): Promise<Actor> {
  try {
    const { payload } = await jwtVerify(token, infra.tokenKey, {
      algorithms: [ALGORITHM],
      currentDate: infra.clock.now(),
    });
    if (typeof payload.sub !== 'string' || (payload.rol !== 'admin' && payload.rol !== 'user')) throw new Error('claims');
    return { id: payload.sub, rol: payload.rol };
  } catch {
    throw unauthorized('Invalid or expired token');
  }
}
