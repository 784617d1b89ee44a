import type { Operation } from '@berth/shared/contract/operation';
import { accountAggregate } from '@berth/shared/domain/account/account';
import { forbidden } from '@berth/shared/errors';
import type { ReadStore } from '@berth/shared/ports/read-store';
import type { Context } from '../context.ts';
import { ruleOf, serviceIdFieldOf } from './rules.ts';

/** Collections of records that belong to a service, and how to reach the service from one. */
const OWNER_OF: Record<string, (doc: Record<string, unknown>) => unknown> = {
  portId: (doc) => doc.applicationId,
  redirectId: (doc) => doc.applicationId,
  securityId: (doc) => doc.applicationId,
  backupId: (doc) => doc[`${String(doc.databaseType)}Id`],
  deploymentId: (doc) => doc.applicationId ?? doc.composeId ?? doc.databaseId,
};
const COLLECTION_OF: Record<string, string> = {
  portId: 'port', redirectId: 'redirect', securityId: 'security', backupId: 'backup', deploymentId: 'deployment',
};

/** The service an id field names or belongs to; null when the record does not exist (the handler answers 404). */
async function serviceOf(store: ReadStore, field: string, id: string): Promise<string | null> {
  const owner = OWNER_OF[field];
  if (!owner) return id;
  const doc = await store.get(COLLECTION_OF[field]!, id);
  return doc ? String(owner(doc)) : null;
}

/** FORBIDDEN unless the caller may run `operation` with this input; an admin may run everything. */
export async function authorize(ctx: Context, operation: Operation, input: Record<string, unknown>): Promise<void> {
  const rule = ruleOf(operation);
  const actor = ctx.actor;
  if (rule.kind === 'token-issuing' || !actor || actor.rol === 'admin') return;
  const { permissions } = actor;
  const needFlag = (flag: keyof typeof permissions | undefined) => {
    if (flag && permissions[flag] !== true) throw forbidden(`This account lacks the permission ${flag}`);
  };
  switch (rule.kind) {
    case 'signed-in': return;
    case 'admin': throw forbidden(`${operation.name} is for admins`);
    case 'flag': return needFlag(rule.flag);
    case 'self-or-admin':
      if (input[rule.field] !== actor.id) throw forbidden('Only an admin may read other accounts');
      return;
    case 'project':
      needFlag(rule.flag);
      if (!ctx.canSeeProject(String(input[rule.field]))) throw forbidden('This account has no access to that project');
      return;
    case 'new-service':
      needFlag('canCreateServices');
      if (!ctx.canSeeProject(String(input[rule.field]))) throw forbidden('This account has no access to that project');
      return;
    case 'service': {
      needFlag(rule.flag);
      const field = typeof rule.field === 'string' ? rule.field : rule.field(input);
      const value = input[field];
      if (typeof value !== 'string') return; // the handler names the missing field
      const service = await serviceOf(ctx.infra.readStore, field, value);
      if (service !== null && !ctx.canSeeService(service)) throw forbidden('This account has no access to that service');
      return;
    }
  }
}

/** A project or service a user creates is added to that user's access lists. */
export async function grantCreated(ctx: Context, operation: Operation, answer: unknown): Promise<void> {
  const actor = ctx.actor;
  if (!actor || actor.rol === 'admin' || !answer || typeof answer !== 'object') return;
  const rule = ruleOf(operation);
  const isProject = operation.name === 'project.create';
  if (!isProject && rule.kind !== 'new-service') return;
  const idField = isProject ? 'projectId' : serviceIdFieldOf(operation.group);
  const resourceId = idField && (answer as Record<string, unknown>)[idField];
  if (typeof resourceId !== 'string') return;
  await ctx.execute(accountAggregate, actor.id, {
    type: 'GrantAccess', data: { id: actor.id, kind: isProject ? 'project' : 'service', resourceId },
  });
}
