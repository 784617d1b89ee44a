// Which operations each account may call (behaviour.md, Permissions). One rule an operation,
// derived from its group and procedure; the exceptions are listed by name.
import type { Operation } from '@berth/shared/contract/operation';
import { ENGINES } from '@berth/shared/contract/databases';
import type { PermissionFlag } from '@berth/shared/domain/account/permissions';

export type Rule =
  | { readonly kind: 'token-issuing' }
  | { readonly kind: 'admin' }
  /** The caller's own account, or any account for an admin. */
  | { readonly kind: 'self-or-admin'; readonly field: string }
  /**
   * Any account with the flag, when one is given; every project and service the input names must be
   * one it may see (authorize.ts). `grants`: what the operation creates joins the creator's access lists.
   * `namedBy`: the input field naming, by its runtime name, the service the operation reads.
   */
  | { readonly kind: 'account'; readonly flag?: PermissionFlag; readonly grants?: 'project' | 'service'; readonly namedBy?: 'appName' };

const SERVICE_GROUPS: Record<string, string> = {
  application: 'applicationId', compose: 'composeId', ...Object.fromEntries(ENGINES.map((engine) => [engine, `${engine}Id`])),
};
/** The id field of the records a service group creates (`application` → `applicationId`). */
export const serviceIdFieldOf = (group: string): string | undefined => SERVICE_GROUPS[group];

const ADMIN_GROUPS = new Set(['destination', 'certificates', 'cluster', 'admin', 'events', 'projections', 'notification']);

/** The live views of one service's containers: the service they name must be one the caller may see. */
const CONTAINERS_BY_APP_NAME: Rule = { kind: 'account', flag: 'canAccessToContainer', namedBy: 'appName' };

const EXCEPTIONS: Record<string, Rule> = {
  'auth.createAdmin': { kind: 'token-issuing' },
  'auth.login': { kind: 'token-issuing' },
  'auth.verifyLogin2FA': { kind: 'token-issuing' },
  'auth.createUser': { kind: 'token-issuing' },
  'auth.generateToken': { kind: 'account', flag: 'canAccessToAPI' },
  'auth.one': { kind: 'admin' },
  'auth.updateByAdmin': { kind: 'admin' },
  'user.all': { kind: 'admin' },
  'user.byAuthId': { kind: 'self-or-admin', field: 'authId' },
  'user.byUserId': { kind: 'self-or-admin', field: 'userId' },
  'registry.create': { kind: 'admin' },
  'registry.remove': { kind: 'admin' },
  'registry.update': { kind: 'admin' },
  'registry.enableSelfHostedRegistry': { kind: 'admin' },
  // The engine, as root, reaches the host:port it names: open to all, it probes loopback and internal ports.
  'registry.testRegistry': { kind: 'admin' },
  'project.create': { kind: 'account', flag: 'canCreateProjects', grants: 'project' },
  // Its services go with it (handlers/project.ts asks for the right to delete each one).
  'project.remove': { kind: 'account', flag: 'canDeleteProjects' },
  'compose.deployTemplate': { kind: 'account', flag: 'canCreateServices', grants: 'service' },
  'application.readProxyConfig': { kind: 'account', flag: 'canAccessToProxyFiles' },
  'application.updateProxyConfig': { kind: 'account', flag: 'canAccessToProxyFiles' },
  'application.readAppMonitoring': CONTAINERS_BY_APP_NAME,
  'container.getContainersByAppNameMatch': CONTAINERS_BY_APP_NAME,
  'container.getContainersByAppLabel': CONTAINERS_BY_APP_NAME,
};

export function ruleOf(operation: Operation): Rule {
  const exception = EXCEPTIONS[operation.name];
  if (exception) return exception;
  const { group, procedure } = operation;
  if (ADMIN_GROUPS.has(group)) return { kind: 'admin' };
  if (group === 'container') return { kind: 'account', flag: 'canAccessToContainer' };
  if (SERVICE_GROUPS[group]) {
    if (procedure === 'create') return { kind: 'account', flag: 'canCreateServices', grants: 'service' };
    if (procedure === 'delete' || procedure === 'remove') return { kind: 'account', flag: 'canDeleteServices' };
  }
  return { kind: 'account' };
}

/** The input fields that name a service by its own id. */
export const SERVICE_ID_FIELDS: readonly string[] = Object.values(SERVICE_GROUPS);

/**
 * The fields of a compose service that say what it runs on the host (its file, the tool's command,
 * where the file comes from, and whether the tool runs it as a compose project): changing one is
 * for accounts with `canCreateServices`, as writing a new compose service is; the check needs the
 * record as it was (a field sent back unchanged changes nothing), so handlers/compose.ts makes it.
 */
export const COMPOSE_RUN_RULE = {
  flag: 'canCreateServices',
  // env too: the file's ${VARIABLES} read it (an image, a host path to mount), and the tool runs with it.
  fields: ['composeFile', 'command', 'composePath', 'composeType', 'sourceType', 'customGitUrl', 'customGitBranch', 'repository', 'owner', 'branch', 'env'],
} as const satisfies { flag: PermissionFlag; fields: readonly string[] };
