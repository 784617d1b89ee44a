import type { Operation } from '@berth/shared/contract/operation';
import { PUBLIC_OPERATIONS } from '@berth/shared/contract/index';
import { accountAggregate } from '@berth/shared/domain/account/account';
import { conflict, unauthorized } from '@berth/shared/errors';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { Actor } from '../context.ts';
import { adminExists, isSetupToken } from './setup-token.ts';
import { verifyToken } from './tokens.ts';

const bearer = (header: string | undefined): string | null => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1]! : null;
};

/**
 * Who is calling: `null` for the operations that hand out tokens; for `auth.createAdmin` the
 * setup token must be presented while no admin exists; everything else needs a valid token of
 * an account that still exists.
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
  const actor = await verifyToken(infra, token);
  if (!(await infra.readStore.get(accountAggregate.name, actor.id))) throw unauthorized('Invalid or expired token');
  return actor;
}
