import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseProfileOverrides, type ProfileOverrides } from '../domain/database/profile-override.ts';

export const ROLES = ['api', 'projections', 'relay', 'reactors'] as const;
export type RoleName = (typeof ROLES)[number];

export interface Config {
  readonly dataDir: string;
  readonly host: string;
  readonly port: number;
  readonly roles: readonly RoleName[];
  /** How long a JWT from `auth.login` lives. */
  readonly tokenLifetimeSeconds: number;
  /** Bound on the read-your-writes wait of a command. */
  readonly projectionWaitMs: number;
  /** `FULL` survives power loss; `NORMAL` only a process crash. */
  readonly sqliteSynchronous: 'FULL' | 'NORMAL';
  /** Base64 of 32 bytes (BERTH_INSTANCE_KEY, or the file BERTH_INSTANCE_KEY_FILE names); else the key file in the data folder. */
  readonly instanceKey: string | undefined;
  readonly logLevel: string;
  /** How long an invitation can be accepted. */
  readonly invitationLifetimeSeconds: number;
  /** Failed sign-in attempts allowed per account, and per client address, in the window. */
  readonly attemptsPerAccount: number;
  readonly attemptsPerAddress: number;
  readonly attemptWindowSeconds: number;
  /** The container engine: a unix socket path or http(s)://host:port. */
  readonly engineSocket: string;
  /** How services publish their ports: `host` works everywhere, `ingress` needs the mesh. */
  readonly publishMode: 'host' | 'ingress';
  /** How long a deployment waits for its new tasks to run before failing with the engine's reason. */
  readonly taskStartTimeoutMs: number;
  /** How long a deploy's tasks must run before it succeeds: a crash or a failed health check shows by then. */
  readonly taskSteadyMs: number;
  /** Where the proxy's dynamic configuration files are written, one per application. */
  readonly proxyDir: string;
  /** The image enableSelfHostedRegistry runs. */
  readonly registryImage: string;
  /** Request metrics at `/metrics` and a log line per request; off only to measure their cost. */
  readonly metrics: boolean;
  /** `/ready` answers 503 while the read models are more events than this behind the log. */
  readonly readyMaxLag: number;
  /** `/ready` fails while the oldest event the read models have not applied is older than this. */
  readonly readyMaxLagSeconds: number;
  /** EventStoreDB connection string (`esdb://…`) of the scaled-out event log; SQLite when unset. */
  readonly eventStoreUrl: string | undefined;
  /** MongoDB connection string of the scaled-out read models; SQLite when unset. */
  readonly mongoUrl: string | undefined;
  /** How long a starting process waits for its stores before it gives up and exits. */
  readonly connectTimeoutSeconds: number;
  /** Time to live of the NATS leases that keep one projections process writing. */
  readonly leaseTtlMs: number;
  /** Waits between the attempts of a webhook notification; one more attempt than waits. */
  readonly notifyRetryMs: readonly number[];
  /** How long a webhook receiver has to answer an attempt. */
  readonly notifyTimeoutMs: number;
  /** NATS servers of the JetStream bus (comma-separated); the in-process bus when unset. */
  readonly natsUrl: string | undefined;
  /** Deployments of different services that run at once. */
  readonly deployConcurrency: number;
  /** Finished deployments (with their logs) kept per service. */
  readonly keepDeployments: number;
  /** Bound on the wait of start, stop, reload and cancel for the engine's outcome. */
  readonly actionWaitMs: number;
  /** The operator's changes to the database engine profiles (BERTH_DATABASE_PROFILES, a JSON file). */
  readonly databaseProfiles: ProfileOverrides;
  /** Whether removing a database removes its `<appName>-data` volume too (kept by default). */
  readonly removeDatabaseVolumes: boolean;
}

/**
 * Scaled out: the log or the read models live in a server shared by several processes, so no
 * process may trust what it remembers of them (see the README on caches).
 */
export const isScaledOut = (config: Config): boolean => !!(config.eventStoreUrl || config.mongoUrl);

type Env = Readonly<Record<string, string | undefined>>;

function number(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

/** The text of the file that `variable` names, or an error an operator can act on. */
function fileNamedBy(variable: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${variable}: cannot read ${path}: ${(error as Error).message}`);
  }
}

function databaseProfiles(path: string | undefined): ProfileOverrides {
  if (!path) return {};
  return parseProfileOverrides(fileNamedBy('BERTH_DATABASE_PROFILES', path), `BERTH_DATABASE_PROFILES (${path})`);
}

/** The instance key itself, or read from the file named (a swarm secret, say). */
const instanceKeyFrom = (env: Env): string | undefined => env.BERTH_INSTANCE_KEY
  || (env.BERTH_INSTANCE_KEY_FILE ? fileNamedBy('BERTH_INSTANCE_KEY_FILE', env.BERTH_INSTANCE_KEY_FILE).trim() : undefined);

function roles(raw: string | undefined): RoleName[] {
  if (!raw) return [...ROLES];
  const names = raw.split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of names) {
    if (!(ROLES as readonly string[]).includes(name)) throw new Error(`Unknown role "${name}" in BERTH_ROLES (${ROLES.join(', ')})`);
  }
  return names as RoleName[];
}

export function configFrom(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const config: Config = {
    dataDir: resolve(env.BERTH_DATA_DIR || './data'),
    host: env.HOST || '0.0.0.0',
    port: number(env, 'PORT', 3000),
    roles: roles(env.BERTH_ROLES),
    tokenLifetimeSeconds: number(env, 'BERTH_TOKEN_LIFETIME_SECONDS', 24 * 3600),
    projectionWaitMs: number(env, 'BERTH_PROJECTION_WAIT_MS', 5000),
    sqliteSynchronous: env.BERTH_SQLITE_SYNCHRONOUS === 'NORMAL' ? 'NORMAL' : 'FULL',
    instanceKey: instanceKeyFrom(env),
    logLevel: env.BERTH_LOG_LEVEL || 'info',
    invitationLifetimeSeconds: number(env, 'BERTH_INVITATION_LIFETIME_SECONDS', 24 * 3600),
    attemptsPerAccount: number(env, 'BERTH_ATTEMPTS_PER_ACCOUNT', 5),
    attemptsPerAddress: number(env, 'BERTH_ATTEMPTS_PER_ADDRESS', 20),
    attemptWindowSeconds: number(env, 'BERTH_ATTEMPT_WINDOW_SECONDS', 15 * 60),
    engineSocket: env.BERTH_ENGINE_SOCKET || '/var/run/docker.sock',
    publishMode: env.BERTH_PUBLISH_MODE === 'ingress' ? 'ingress' : 'host',
    taskStartTimeoutMs: number(env, 'BERTH_TASK_START_TIMEOUT_MS', 60_000),
    // The engine's own default: an update watches each new task this long for a failure.
    taskSteadyMs: number(env, 'BERTH_TASK_STEADY_MS', 5_000),
    proxyDir: '',
    registryImage: env.BERTH_REGISTRY_IMAGE || 'registry:2',
    metrics: env.BERTH_METRICS !== 'off',
    readyMaxLag: number(env, 'BERTH_READY_MAX_LAG', 1000),
    readyMaxLagSeconds: number(env, 'BERTH_READY_MAX_LAG_SECONDS', 10),
    eventStoreUrl: env.BERTH_EVENTSTORE_URL || undefined,
    mongoUrl: env.BERTH_MONGO_URL || undefined,
    connectTimeoutSeconds: number(env, 'BERTH_CONNECT_TIMEOUT_SECONDS', 60),
    leaseTtlMs: Math.max(1000, number(env, 'BERTH_LEASE_TTL_MS', 10_000)),
    notifyRetryMs: (env.BERTH_NOTIFY_RETRY_MS || '1000,10000,60000,300000').split(',').map((ms) => Number(ms)).filter((ms) => ms >= 0),
    notifyTimeoutMs: number(env, 'BERTH_NOTIFY_TIMEOUT_MS', 10_000),
    natsUrl: env.BERTH_NATS_URL || undefined,
    deployConcurrency: Math.max(1, number(env, 'BERTH_DEPLOY_CONCURRENCY', 4)),
    keepDeployments: Math.max(1, number(env, 'BERTH_KEEP_DEPLOYMENTS', 10)),
    actionWaitMs: number(env, 'BERTH_ACTION_WAIT_MS', 60_000),
    databaseProfiles: overrides.databaseProfiles ?? databaseProfiles(env.BERTH_DATABASE_PROFILES),
    removeDatabaseVolumes: env.BERTH_REMOVE_DATABASE_VOLUMES === 'on',
    ...overrides,
  };
  // Beside the data by default, wherever the data folder was put.
  return { ...config, proxyDir: overrides.proxyDir ?? resolve(env.BERTH_PROXY_DIR || join(config.dataDir, 'proxy')) };
}
