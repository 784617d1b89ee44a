// The records answers are made of, each built once and reused by every operation that answers
// it. Answers are serialised with these schemas: a field not named here never leaves the server.
import { Type, type TProperties } from '@sinclair/typebox';
import { orchestratorSettings } from './orchestrator.ts';
import {
  APP_SOURCE_TYPES, BACKUP_DATABASE_TYPES, BUILD_TYPES, Bool, COMPOSE_SOURCE_TYPES, COMPOSE_TYPES, Closed, Nullable, Num, OneOf, Opt,
  PROTOCOLS, REGISTRY_TYPES, ROLES, Status, Str,
} from './schema.ts';
import { DEPLOYMENT_KINDS, DEPLOYMENT_STATUSES, TRIGGERS } from './deployment-values.ts';
import { ENGINES } from './engines.ts';

const NStr = () => Nullable(Str());
const NNum = () => Nullable(Num());
const NBool = () => Nullable(Bool());

export const ProjectRecord = Closed({ projectId: Str(), name: Str(), description: NStr(), createdAt: Str() });

const resources = { memoryReservation: NNum(), memoryLimit: NNum(), cpuReservation: NNum(), cpuLimit: NNum() };
const orchestrator = Object.fromEntries(
  Object.entries(orchestratorSettings).map(([field, schema]) => [field, Nullable(schema)]),
) as TProperties;

/**
 * An application as answers show it: secrets the caller manages included, the SSH private key never,
 * the proxy configuration only to callers who may read proxy files.
 */
export const ApplicationRecord = Closed({
  applicationId: Str(), projectId: Str(), name: Str(), appName: Str(), description: NStr(), env: NStr(),
  ...resources,
  title: NStr(), subtitle: NStr(), command: NStr(), refreshToken: NStr(), enabled: NBool(),
  sourceType: OneOf(APP_SOURCE_TYPES), repository: NStr(), owner: NStr(), branch: NStr(), buildPath: NStr(),
  autoDeploy: NBool(), username: NStr(), password: NStr(), containerImage: NStr(),
  customGitUrl: NStr(), customGitBranch: NStr(), customGitBuildPath: NStr(), customGitSSHKey: NStr(),
  containerfile: NStr(), replicas: Num(), applicationStatus: Status(), buildType: OneOf(BUILD_TYPES),
  registryId: NStr(), proxyConfig: Opt(NStr()), createdAt: Str(),
  ...orchestrator,
});

export const ComposeRecord = Closed({
  composeId: Str(), projectId: Str(), name: Str(), appName: Str(), description: NStr(), env: NStr(),
  refreshToken: NStr(), composeFile: Str(), sourceType: OneOf(COMPOSE_SOURCE_TYPES), composeType: OneOf(COMPOSE_TYPES),
  repository: NStr(), owner: NStr(), branch: NStr(), autoDeploy: NBool(), customGitUrl: NStr(), customGitBranch: NStr(),
  customGitSSHKey: NStr(), command: Str(), composePath: Str(), composeStatus: Status(), createdAt: Str(),
});

/** The fields every database engine's record has; each engine adds its id and credentials. */
export const databaseFields = {
  projectId: Str(), name: Str(), appName: Str(), description: NStr(), containerImage: Str(), command: NStr(), env: NStr(),
  ...resources, externalPort: NNum(), applicationStatus: Status(), createdAt: Str(),
};

export const PortRecord = Closed({
  portId: Str(), applicationId: Str(), publishedPort: Num(), targetPort: Num(), protocol: OneOf(PROTOCOLS), createdAt: Str(),
});
export const RedirectRecord = Closed({
  redirectId: Str(), applicationId: Str(), regex: Str(), replacement: Str(), permanent: Bool(), createdAt: Str(),
});
export const SecurityRecord = Closed({
  securityId: Str(), applicationId: Str(), username: Str(), password: Str(), createdAt: Str(),
});

// dbepsilonId and keepLatest came later (beyond the spec): older records do not have them.
const backupOwners = Object.fromEntries(BACKUP_DATABASE_TYPES.map((type) =>
  [`${type}Id`, type === 'dbepsilon' ? Opt(NStr()) : NStr()])) as TProperties;
export const BackupRecord = Closed({
  backupId: Str(), schedule: Str(), enabled: NBool(), prefix: Str(), destinationId: Str(), database: Str(),
  databaseType: OneOf(BACKUP_DATABASE_TYPES), ...backupOwners, createdAt: Str(), keepLatest: Opt(NNum()),
});

/** One backup or restore run, from start to outcome (beyond the spec). */
export const BackupRunRecord = Closed({
  runId: Str(), backupId: Str(), kind: OneOf(['backup', 'restore'] as const), trigger: OneOf(['schedule', 'manual'] as const),
  key: Str(), databaseType: Str(), databaseId: Str(), status: OneOf(['running', 'done', 'error'] as const),
  startedAt: Str(), finishedAt: NStr(), size: NNum(), error: NStr(), log: Type.Array(Str()),
});

export const DestinationRecord = Closed({
  destinationId: Str(), name: Str(), accessKey: Str(), bucket: Str(), region: Str(), endpoint: Str(),
  secretAccessKey: Str(), createdAt: Str(),
});

/** A registry as answers show it: the password only to admins, who manage registries. */
export const RegistryRecord = Closed({
  registryId: Str(), registryName: Str(), username: Str(), password: Opt(Str()), registryUrl: Str(),
  registryType: OneOf(REGISTRY_TYPES), imagePrefix: NStr(), adminId: Str(), createdAt: Str(),
});

export const CertificateRecord = Closed({
  certificateId: Str(), name: Str(), certificateData: Str(), privateKey: Str(), certificatePath: Str(),
  autoRenew: NBool(), commonName: NStr(), domains: Type.Array(Str()), issuer: Str(), notBefore: Str(),
  notAfter: Str(), fingerprint256: Str(), createdAt: Str(),
});

const flags = {
  canCreateProjects: Bool(), canCreateServices: Bool(), canDeleteProjects: Bool(), canDeleteServices: Bool(),
  canAccessToProxyFiles: Bool(), canAccessToContainer: Bool(), canAccessToAPI: Bool(),
};
export const PermissionsRecord = Closed({
  userId: Str(), ...flags, accesedProjects: Type.Array(Str()), accesedServices: Type.Array(Str()),
});

/** An account: never its password hash, two-factor secret or invitation token. */
export const AccountRecord = Closed({
  id: Str(), email: Str(), rol: OneOf(ROLES), image: Str(), status: OneOf(['invited', 'active'] as const),
  is2FAEnabled: Bool(), permissions: PermissionsRecord, invitationExpiresAt: NStr(), createdAt: Str(),
});

/** A deployment of a service, from queued to its end (the Deployment aggregate's record). */
export const DeploymentRecord = Closed({
  deploymentId: Str(), applicationId: NStr(), composeId: NStr(), databaseId: NStr(), databaseType: Nullable(OneOf(ENGINES)),
  kind: OneOf(DEPLOYMENT_KINDS), status: OneOf(DEPLOYMENT_STATUSES), title: Str(),
  trigger: OneOf(TRIGGERS), accountId: NStr(), revision: NStr(), image: NStr(), rollbackOf: NStr(),
  reason: NStr(), cancelRequested: Bool(), statusBefore: Nullable(Status()),
  createdAt: Str(), startedAt: NStr(), finishedAt: NStr(),
});

/** How a service shows in its project's answer: what a dashboard lists, no settings or secrets. */
const summary = (idField: string, statusField: string, extra: TProperties) => Closed({
  [idField]: Str(), projectId: Str(), name: Str(), appName: Str(), description: NStr(), [statusField]: Status(),
  ...extra, createdAt: Str(),
});
export const ApplicationSummary = summary('applicationId', 'applicationStatus', {
  sourceType: OneOf(APP_SOURCE_TYPES), buildType: OneOf(BUILD_TYPES),
});
export const ComposeSummary = summary('composeId', 'composeStatus', {
  sourceType: OneOf(COMPOSE_SOURCE_TYPES), composeType: OneOf(COMPOSE_TYPES),
});
export const databaseSummary = (idField: string) => summary(idField, 'applicationStatus', {
  containerImage: Str(), externalPort: NNum(),
});
