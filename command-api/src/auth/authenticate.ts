import type { Operation } from '@berth/shared/contract/operation';
import { PUBLIC_OPERATIONS } from '@berth/shared/contract/index';
import { accountAggregate, endedByPasswordChange, type Account } from '@berth/shared/domain/account/account';
import { sessionAggregate, type Session } from '@berth/shared/domain/session/session';
import { conflict, forbidden, unauthorized } from '@berth/shared/errors';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { Actor } from '../context.ts';
import { ReadModelMemo } from '../read-model-memo.ts';
import { adminExists, isSetupToken } from './setup-token.ts';
import { parseApiToken, sameHash, sha256, verifyLoginToken } from './tokens.ts';

const bearer = (header: string | undefined): string | null => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1]! : null;
};

const INVALID = 'Invalid or expired token';

/**
 * Callers already found, per instance, kept while the read models stay the same (their version):
 * a revoked session, a deactivated account or new permissions move the version, and so are seen.
 */
const found = new WeakMap<Infrastructure, ReadModelMemo<{ expiresAt: number; actor: Actor }>>();
const MAX_FOUND = 10_000;

/**
 * Who is calling: `null` for the operations that hand out tokens; for `auth.createAdmin` the
 * setup token while no admin exists; for everything else a login token or an API token that is
 * valid, unrevoked, and of an active account that still exists.
 */
export async function authenticate(infra: Infrastructure, operation: Operation, header: string | undefined): Promise<Actor | null> {
  if (PUBLIC_OPERATIONS.has(operation.name)) return null;
  const token = bearer(header);
  if (operation.name === 'auth.createAdmin') {
    if (await adminExists(infra)) throw conflict('An admin already exists');
    if (!token || !isSetupToken(infra, token)) throw unauthorized('auth.createAdmin needs the setup token as its Bearer token');
    return null;
  }
  if (!token) throw unauthorized('Missing Bearer token');
  let callers = found.get(infra);
  if (!callers) found.set(infra, (callers = new ReadModelMemo(infra.readStore, MAX_FOUND)));
  const caller = await callers.get(token, () => findCaller(infra, token));
  // A login token kept past its expiry is checked again, and refused.
  return caller.expiresAt > infra.clock.now().getTime() ? caller.actor : (await findCaller(infra, token)).actor;
}

/** The account behind a valid, unrevoked token of an active account, and when the token expires. */
async function findCaller(infra: Infrastructure, token: string): Promise<{ expiresAt: number; actor: Actor }> {
  const api = parseApiToken(token);
  const { accountId, sessionId, issuedAt, expiresAt } = api ? await checkApiToken(infra, api) : await verifyLoginToken(infra, token);
  const signedInAt = api ? null : issuedAt;
  const [account, session] = await Promise.all([
    infra.readStore.get(accountAggregate.name, accountId) as Promise<Account | null>,
    api ? null : (infra.readStore.get(sessionAggregate.name, sessionId) as Promise<Session | null>),
  ]);
  if (!account || account.status !== 'active' || session?.revokedAt || endedByPasswordChange(account, { sessionId, issuedAt })) {
    throw unauthorized(INVALID);
  }
  if (api && account.rol !== 'admin' && !account.permissions.canAccessToAPI) {
    throw forbidden('This account may not use API tokens (canAccessToAPI)');
  }
  const actor: Actor = {
    id: account.id, rol: account.rol, email: account.email, permissions: account.permissions,
    sessionId, sessionKind: api ? 'api' : 'login', signedInAt,
  };
  return { expiresAt, actor };
}

async function checkApiToken(infra: Infrastructure, token: { sessionId: string; secret: string }) {
  const session = await infra.readStore.get(sessionAggregate.name, token.sessionId) as Session | null;
  if (!session || session.kind !== 'api' || session.revokedAt || !session.secretHash || !sameHash(session.secretHash, sha256(token.secret))) {
    throw unauthorized(INVALID);
  }
  return { accountId: session.accountId, sessionId: session.sessionId, issuedAt: Date.parse(session.createdAt), expiresAt: Infinity };
}
