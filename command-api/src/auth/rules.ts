// Which operations each account may call (behaviour.md, Permissions). One rule an operation,
// derived from its group and procedure; the exceptions are listed by name.
import type { Operation } from '@berth/shared/contract/operation';
import { ENGINES } from '@berth/shared/contract/databases';
import type { PermissionFlag } from '@berth/shared/domain/account/permissions';

type FieldOf = string | ((input: Record<string, unknown>) => string);

export type Rule =
  | { readonly kind: 'token-issuing' }
  | { readonly kind: 'signed-in' }
  | { readonly kind: 'admin' }
  | { readonly kind: 'flag'; readonly flag: PermissionFlag }
  /** Access to the project named by `field`, and the flag when one is given. */
  | { readonly kind: 'project'; readonly field: string; readonly flag?: PermissionFlag }
  /** A new service in the project named by `field`: canCreateServices and access to the project. */
  | { readonly kind: 'new-service'; readonly field: string }
  /** Access to the service that `field` names or belongs to, and the flag when one is given. */
  | { readonly kind: 'service'; readonly field: FieldOf; readonly flag?: PermissionFlag }
  /** The caller's own account, or any account for an admin. */
  | { readonly kind: 'self-or-admin'; readonly field: string };

const SERVICE_GROUPS: Record<string, string> = {
  application: 'applicationId', compose: 'composeId', ...Object.fromEntries(ENGINES.map((engine) => [engine, `${engine}Id`])),
  port: 'portId', redirects: 'redirectId', security: 'securityId', backup: 'backupId', deployment: 'deploymentId',
};
/** The id field of the records a service group creates (`application` → `applicationId`). */
export const serviceIdFieldOf = (group: string): string | undefined => SERVICE_GROUPS[group];

const ADMIN_GROUPS = new Set(['destination', 'certificates', 'cluster', 'admin', 'events', 'projections', 'notification']);

const EXCEPTIONS: Record<string, Rule> = {
  'auth.createAdmin': { kind: 'token-issuing' },
  'auth.login': { kind: 'token-issuing' },
  'auth.verifyLogin2FA': { kind: 'token-issuing' },
  'auth.createUser': { kind: 'token-issuing' },
  'auth.generateToken': { kind: 'flag', flag: 'canAccessToAPI' },
  'auth.one': { kind: 'admin' },
  'auth.updateByAdmin': { kind: 'admin' },
  'user.all': { kind: 'admin' },
  'user.byAuthId': { kind: 'self-or-admin', field: 'authId' },
  'user.byUserId': { kind: 'self-or-admin', field: 'userId' },
  'registry.create': { kind: 'admin' },
  'registry.remove': { kind: 'admin' },
  'registry.update': { kind: 'admin' },
  'registry.enableSelfHostedRegistry': { kind: 'admin' },
  'project.all': { kind: 'signed-in' },
  'project.create': { kind: 'flag', flag: 'canCreateProjects' },
  'project.remove': { kind: 'project', field: 'projectId', flag: 'canDeleteProjects' },
  'compose.templates': { kind: 'signed-in' },
  'compose.deployTemplate': { kind: 'new-service', field: 'projectId' },
  'application.readProxyConfig': { kind: 'service', field: 'applicationId', flag: 'canAccessToProxyFiles' },
  'application.updateProxyConfig': { kind: 'service', field: 'applicationId', flag: 'canAccessToProxyFiles' },
  'application.readAppMonitoring': { kind: 'flag', flag: 'canAccessToContainer' },
  'port.create': { kind: 'service', field: 'applicationId' },
  'redirects.create': { kind: 'service', field: 'applicationId' },
  'security.create': { kind: 'service', field: 'applicationId' },
  'backup.create': { kind: 'service', field: (input) => `${String(input.databaseType)}Id` },
  'deployment.all': { kind: 'service', field: (input) => (['composeId', 'databaseId'].find((field) => input[field] !== undefined) ?? 'applicationId') },
};

export function ruleOf(operation: Operation): Rule {
  const exception = EXCEPTIONS[operation.name];
  if (exception) return exception;
  const { group, procedure } = operation;
  if (ADMIN_GROUPS.has(group)) return { kind: 'admin' };
  if (group === 'container') return { kind: 'flag', flag: 'canAccessToContainer' };
  if (group === 'project') return { kind: 'project', field: 'projectId' };
  const serviceField = SERVICE_GROUPS[group];
  if (serviceField) {
    if (procedure === 'create') return { kind: 'new-service', field: 'projectId' };
    const deletes = (procedure === 'delete' || procedure === 'remove') && !['port', 'redirects', 'security', 'backup'].includes(group);
    return { kind: 'service', field: serviceField, ...(deletes && { flag: 'canDeleteServices' as const }) };
  }
  return { kind: 'signed-in' };
}
