import type { Operation } from '@berth/shared/contract/operation';
import { accountAggregate } from '@berth/shared/domain/account/account';
import { forbidden, notFound } from '@berth/shared/errors';
import type { Doc } from '@berth/shared/ports/read-store';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { backupAggregate } from '@berth/shared/domain/backup/backup';
import { deploymentAggregate } from '@berth/shared/domain/deployment/deployment';
import { portAggregate } from '@berth/shared/domain/port/port';
import { redirectAggregate } from '@berth/shared/domain/redirect/redirect';
import { securityAggregate } from '@berth/shared/domain/security/security';
import type { Context } from '../context.ts';
import { serviceIdOf } from '../handlers/container-owner.ts';
import { ruleOf, serviceIdFieldOf, SERVICE_ID_FIELDS } from './rules.ts';

/** Records that belong to a service, by the field that names them, and how to reach the service from one. */
const RECORDS_OF_SERVICES: Record<string, { readonly aggregate: AnyAggregate; readonly owner: (doc: Doc) => unknown }> = {
  portId: { aggregate: portAggregate, owner: (doc) => doc.applicationId },
  redirectId: { aggregate: redirectAggregate, owner: (doc) => doc.applicationId },
  securityId: { aggregate: securityAggregate, owner: (doc) => doc.applicationId },
  backupId: { aggregate: backupAggregate, owner: (doc) => doc[`${String(doc.databaseType)}Id`] },
  deploymentId: { aggregate: deploymentAggregate, owner: (doc) => doc.applicationId ?? doc.composeId ?? doc.databaseId },
};

/** The input fields whose service the caller must see; `databaseId` is deployment.all's name for a database. */
const SERVICE_FIELDS = [...SERVICE_ID_FIELDS, 'databaseId', ...Object.keys(RECORDS_OF_SERVICES)];

/**
 * Every project and service the input names, by its own id or through a record of it, must be one
 * the caller may see: the one the operation acts on, and any other it reaches, such as the project
 * an update moves a service to or the database a restore writes into.
 */
async function mustSeeEverythingNamed(ctx: Context, input: Record<string, unknown>): Promise<void> {
  if (typeof input.projectId === 'string' && !ctx.canSeeProject(input.projectId)) {
    throw forbidden('This account has no access to that project');
  }
  for (const field of SERVICE_FIELDS) {
    const id = input[field];
    if (typeof id !== 'string') continue; // the handler names a missing field
    const record = RECORDS_OF_SERVICES[field];
    let service = id;
    if (record) {
      const doc = await ctx.infra.readStore.get(record.aggregate.name, id);
      // No owner to check: answered as the record's absence, which the read models are the caller's view of.
      if (!doc) throw notFound(field, record.aggregate.label);
      service = String(record.owner(doc));
    }
    if (!ctx.canSeeService(service)) throw forbidden('This account has no access to that service');
  }
}

/**
 * The service named by its runtime name must be one the caller may see. A name no service holds is
 * refused as a service the caller may not see, as an unknown id is: the answer tells no more.
 */
async function mustSeeServiceNamed(ctx: Context, name: unknown): Promise<void> {
  if (typeof name !== 'string') return; // the handler names a missing field
  const serviceId = await serviceIdOf(ctx, name);
  if (serviceId === null || !ctx.canSeeService(serviceId)) throw forbidden('This account has no access to that service');
}

/** FORBIDDEN unless the caller may run `operation` with this input; an admin may run everything. */
export async function authorize(ctx: Context, operation: Operation, input: Record<string, unknown>): Promise<void> {
  const rule = ruleOf(operation);
  const actor = ctx.actor;
  if (rule.kind === 'token-issuing' || !actor || actor.rol === 'admin') return;
  if (rule.kind === 'admin') throw forbidden(`${operation.name} is for admins`);
  if (rule.kind === 'self-or-admin') {
    if (input[rule.field] !== actor.id) throw forbidden('Only an admin may read other accounts');
    return;
  }
  if (rule.flag && actor.permissions[rule.flag] !== true) throw forbidden(`This account lacks the permission ${rule.flag}`);
  await mustSeeEverythingNamed(ctx, input);
  if (rule.namedBy) await mustSeeServiceNamed(ctx, input[rule.namedBy]);
}

/** A project or service a user creates is added to that user's access lists. */
export async function grantCreated(ctx: Context, operation: Operation, answer: unknown): Promise<void> {
  const actor = ctx.actor;
  if (!actor || actor.rol === 'admin' || !answer || typeof answer !== 'object') return;
  const rule = ruleOf(operation);
  if (rule.kind !== 'account' || !rule.grants) return;
  const isProject = rule.grants === 'project';
  const idField = isProject ? 'projectId' : serviceIdFieldOf(operation.group);
  const resourceId = idField && (answer as Record<string, unknown>)[idField];
  if (typeof resourceId !== 'string') return;
  await ctx.execute(accountAggregate, actor.id, {
    type: 'GrantAccess', data: { id: actor.id, kind: isProject ? 'project' : 'service', resourceId },
  });
}
