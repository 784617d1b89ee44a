// One deployment of a service: a deploy, a redeploy or a rollback, from queued to its end.
import type { Status } from '../../contract/schema.ts';
import type { DEPLOYMENT_KINDS, DEPLOYMENT_STATUSES, TRIGGERS } from '../../contract/deployment-values.ts';
import type { Engine } from '../../contract/databases.ts';

export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];
export type DeploymentKind = (typeof DEPLOYMENT_KINDS)[number];
export type Trigger = (typeof TRIGGERS)[number];

export const FINISHED: ReadonlySet<DeploymentStatus> = new Set(['done', 'error', 'cancelled']);
/**
 * By end, latest first: a deploy that finishes after the ones queued behind it were cancelled is
 * the service's current version. Ends within the same millisecond (a cancel answered just as the
 * running one finishes) go by start, latest first, one that never started last; then by creation.
 */
export const lastEndedFirst = (a: Deployment, b: Deployment): number =>
  (b.finishedAt ?? '').localeCompare(a.finishedAt ?? '') || (b.startedAt ?? '').localeCompare(a.startedAt ?? '') || b.createdAt.localeCompare(a.createdAt);
/**
 * The engine service label naming the deployment whose spec the service has now: after a crash,
 * the restart finds what an interrupted deployment left on the engine by it.
 */
export const DEPLOYMENT_LABEL = 'berth.deploymentId';
/** The events that end a deployment, whatever its outcome (its status then is one of FINISHED). */
export const ENDING_EVENTS: ReadonlySet<string> = new Set(['DeploymentFinished', 'DeploymentFailed', 'DeploymentCancelled']);
export const INTERRUPTED = 'interrupted';

export interface Deployment {
  deploymentId: string;
  /** The service deployed: an application, a compose service, or a database of `databaseType`. */
  applicationId: string | null;
  composeId: string | null;
  databaseId: string | null;
  databaseType: Engine | null;
  kind: DeploymentKind;
  status: DeploymentStatus;
  title: string;
  /** Who asked: an account (its id in `accountId`) or a push webhook. */
  trigger: Trigger;
  accountId: string | null;
  /** The source revision deployed (a commit id), once known. */
  revision: string | null;
  /** For a rollback, the image to run again; once done, the image the service runs. */
  image: string | null;
  /** The earlier deployment a rollback goes back to. */
  rollbackOf: string | null;
  /** Why it failed or was cancelled. */
  reason: string | null;
  cancelRequested: boolean;
  /** The service's status when the deployment started, restored when it is cancelled. */
  statusBefore: Status | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** What asking for a deployment says; everything else of the record is what happened to it later. */
const REQUEST_FIELDS = ['deploymentId', 'applicationId', 'composeId', 'databaseId', 'databaseType', 'kind', 'title', 'trigger', 'accountId', 'image', 'rollbackOf', 'createdAt'] as const;
type DatabaseFields = 'databaseId' | 'databaseType';
/** A database's fields came later: a request without them is of another kind of service. */
export type NewDeployment = Pick<Deployment, Exclude<(typeof REQUEST_FIELDS)[number], DatabaseFields>> & Partial<Pick<Deployment, DatabaseFields>>;

/** Only the request's fields of `given` (which may be a whole record). */
export const requestOf = (given: NewDeployment): NewDeployment =>
  Object.fromEntries(REQUEST_FIELDS.filter((field) => given[field] !== undefined).map((field) => [field, given[field]])) as unknown as NewDeployment;

export const newDeployment = (given: NewDeployment): Deployment => ({
  ...given, databaseId: given.databaseId ?? null, databaseType: given.databaseType ?? null, status: 'queued', revision: null, reason: null, cancelRequested: false, statusBefore: null, startedAt: null, finishedAt: null,
});

type ServiceRef = Pick<NewDeployment, 'applicationId' | 'composeId' | 'databaseId'>;

/** The field of a deployment that names its service. */
export const serviceFieldOf = (deployment: ServiceRef): 'applicationId' | 'composeId' | 'databaseId' =>
  deployment.applicationId ? 'applicationId' : deployment.composeId ? 'composeId' : 'databaseId';

/** The service a deployment belongs to. */
export const serviceOf = (deployment: ServiceRef): string => deployment[serviceFieldOf(deployment)]!;
