import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { parseProfileOverrides, type ProfileOverrides } from '../domain/database/profile-override.ts';
import { instanceKeyOf } from './keys.ts';
import { engineAddress } from '../adapters/docker/address.ts';
import { isEngineNetwork } from '../domain/application/engine-networks.ts';

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
  /** One of LOG_LEVELS when read from the environment. */
  readonly logLevel: string;
  /** How long an invitation can be accepted. */
  readonly invitationLifetimeSeconds: number;
  /** Failed sign-in attempts allowed per account, and per client address, in the window. */
  readonly attemptsPerAccount: number;
  readonly attemptsPerAddress: number;
  readonly attemptWindowSeconds: number;
  /** Addresses and CIDR ranges of the reverse proxies in front of the API, whose X-Forwarded-For names the client. */
  readonly trustedProxies: readonly string[];
  /** The container engine, in one of the forms engineAddress reads. */
  readonly engineSocket: string;
  /** How services publish their ports: `host` works everywhere, `ingress` needs the mesh. */
  readonly publishMode: 'host' | 'ingress';
  /** How long a deployment waits for its new tasks to run before failing with the engine's reason. */
  readonly taskStartTimeoutMs: number;
  /** How long a deploy's tasks must run before it succeeds: a crash or a failed health check shows by then. */
  readonly taskSteadyMs: number;
  /** Where the proxy's dynamic configuration files are written, one per application. */
  readonly proxyDir: string;
  /** The attachable swarm overlay network every application joins, under its appName, for the proxy to reach it. */
  readonly proxyNetwork: string;
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
  /** Finished run records (backups and restores) kept per backup; the log keeps them all. */
  readonly keepBackupRuns: number;
  /** Bound on the wait of start, stop, reload and cancel for the engine's outcome. */
  readonly actionWaitMs: number;
  /** How often the engine watch checks every service again, besides the engine's events. */
  readonly engineRecheckMs: number;
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

/** Pino's levels: another name would fail inside the logger, after the other roles had started. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The bounds of a whole-number setting; no `max`: any safe integer from `min`. */
interface Range {
  readonly min: number;
  readonly max?: number;
}

/**
 * The longest delay a timer takes (node fires a longer one at once, so a huge wait would mean none);
 * read as seconds (68 years) it also keeps `now + lifetime` a valid date.
 */
const LONGEST_WAIT = 2 ** 31 - 1;

/** A duration (ms or s) from `min`, bounded by what a timer can wait. */
const duration = (min: number): Range => ({ min, max: LONGEST_WAIT });

const rangeText = ({ min, max }: Range) => (max === undefined ? `of at least ${min}` : `from ${min} to ${max}`);

/** An unset or empty variable means its default, as it always has. */
const isUnset = (raw: string | undefined): raw is undefined | '' => raw === undefined || raw === '';

/**
 * Decimal digits only, within `range`; else undefined. Number() would also take `0x1f`, `1e3` and
 * `3.5`, and a setting that silently meant something else (or was clamped) is what this refuses.
 */
function integerIn(raw: string, { min, max = Number.MAX_SAFE_INTEGER }: Range): number | undefined {
  // Not trimmed: README says a value is decimal digits, and " 5" is not (a list's entries are, after its commas).
  if (!/^\d+$/.test(raw)) return undefined;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value >= min && value <= max ? value : undefined;
}

function integer(env: Env, name: string, fallback: number, range: Range): number {
  const raw = env[name];
  if (isUnset(raw)) return fallback;
  const value = integerIn(raw, range);
  if (value === undefined) throw new Error(`${name} must be a whole number ${rangeText(range)} (got "${raw}")`);
  return value;
}

/** A comma-separated list of whole numbers: one bad entry refuses the whole (it was dropped, silently). */
function integers(env: Env, name: string, fallback: readonly number[], range: Range): number[] {
  const raw = env[name];
  if (isUnset(raw)) return [...fallback];
  return raw.split(',').map((entry) => {
    const value = integerIn(entry.trim(), range);
    if (value === undefined) {
      throw new Error(`${name} must be a comma-separated list of whole numbers ${rangeText(range)} (got "${entry.trim()}" in "${raw}")`);
    }
    return value;
  });
}

const isOneOf = <T extends string>(allowed: readonly T[], value: string): value is T => (allowed as readonly string[]).includes(value);

/** One of `allowed`, spelt exactly as documented (as pino takes its levels): anything else is refused, never the default. */
function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (isUnset(raw)) return fallback;
  if (!isOneOf(allowed, raw)) throw new Error(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
  return raw;
}

const onOff = (env: Env, name: string, fallback: 'on' | 'off'): boolean => oneOf(env, name, ['on', 'off'], fallback) === 'on';

/**
 * The folder a relative path setting is read from: the caller's. pnpm runs a script in the package's
 * folder (PNPM_SCRIPT_SRC_DIR) and names the folder it was called from in INIT_CWD; a process in
 * another folder was not started by pnpm for a script, and only inherited them.
 */
function callerFolder(env: Env): string {
  const here = process.cwd();
  return env.INIT_CWD && env.PNPM_SCRIPT_SRC_DIR && resolve(env.PNPM_SCRIPT_SRC_DIR) === here ? env.INIT_CWD : here;
}

/** The text of the file that `variable` names (a relative path is the caller's), or an error an operator can act on. */
function fileNamedBy(env: Env, variable: string, path: string): string {
  try {
    return readFileSync(resolve(callerFolder(env), path), 'utf8');
  } catch (error) {
    throw new Error(`${variable}: cannot read ${path}: ${(error as Error).message}`);
  }
}

function databaseProfiles(env: Env): ProfileOverrides {
  const path = env.BERTH_DATABASE_PROFILES;
  if (!path) return {};
  return parseProfileOverrides(fileNamedBy(env, 'BERTH_DATABASE_PROFILES', path), `BERTH_DATABASE_PROFILES (${path})`);
}

/**
 * The instance key itself, or read from the file named (a swarm secret, say), checked here so that
 * a bad one is named by the variable it came from. An empty file is refused: taken as no key, it had
 * a new one made in the data folder, which opens none of the secrets sealed before.
 */
function instanceKeyFrom(env: Env): string | undefined {
  if (env.BERTH_INSTANCE_KEY) return checkedKey(env.BERTH_INSTANCE_KEY, 'BERTH_INSTANCE_KEY');
  const path = env.BERTH_INSTANCE_KEY_FILE;
  if (!path) return undefined;
  const key = fileNamedBy(env, 'BERTH_INSTANCE_KEY_FILE', path).trim();
  if (!key) throw new Error(`BERTH_INSTANCE_KEY_FILE (${path}) is empty: it must hold base64 of 32 bytes`);
  return checkedKey(key, `BERTH_INSTANCE_KEY_FILE (${path})`);
}

const checkedKey = (key: string, source: string): string => {
  instanceKeyOf(key, source);
  return key;
};

function roles(raw: string | undefined): RoleName[] {
  if (!raw) return [...ROLES];
  const names = raw.split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of names) {
    if (!isOneOf(ROLES, name)) throw new Error(`Unknown role "${name}" in BERTH_ROLES (${ROLES.join(', ')})`);
  }
  // Set, but to nothing: a process that ran no role and said nothing.
  if (names.length === 0) throw new Error(`BERTH_ROLES names no role (${ROLES.join(', ')})`);
  return names as RoleName[];
}

/**
 * IP addresses and CIDR ranges, as given: the server hands them to Fastify's `trustProxy`, which
 * refuses the others only when it is built, after the other roles started. A prefix of 0 would trust
 * every peer, letting any client name its own address; netmasks and range names are not documented.
 */
function trustedProxies(env: Env): string[] {
  const raw = env.BERTH_TRUSTED_PROXIES;
  if (isUnset(raw)) return [];
  return raw.split(',').map((entry) => {
    const proxy = entry.trim();
    const [address = '', prefix, ...more] = proxy.split('/');
    const family = isIP(address);
    const prefixOk = prefix === undefined || integerIn(prefix, { min: 1, max: family === 4 ? 32 : 128 }) !== undefined;
    if (family === 0 || !prefixOk || more.length > 0) {
      throw new Error(`BERTH_TRUSTED_PROXIES must be a comma-separated list of IP addresses and CIDR ranges (IPv4 /1-32, IPv6 /1-128) (got "${proxy}" in "${raw}")`);
    }
    return proxy;
  });
}

/** The engine's address as given, once it is known to be one (engineAddress reads it where it is used). */
function engineSocket(env: Env): string {
  const socket = env.BERTH_ENGINE_SOCKET || '/var/run/docker.sock';
  engineAddress(socket);
  return socket;
}

/** BERTH_PROXY_NETWORK unless set. */
export const DEFAULT_PROXY_NETWORK = 'berth-proxy';

/** How the engine spells a network's name. */
const NETWORK_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The proxy's network: a name the engine takes, and none of the engine's own (none of them is an overlay a service joins by name). */
function proxyNetwork(env: Env): string {
  const name = env.BERTH_PROXY_NETWORK;
  if (isUnset(name)) return DEFAULT_PROXY_NETWORK;
  if (!NETWORK_NAME.test(name) || isEngineNetwork(name)) {
    throw new Error(`BERTH_PROXY_NETWORK must be a network name (letters, digits, "_", "." and "-", not first), not one of the engine's own (got "${name}")`);
  }
  return name;
}

export function configFrom(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const config: Config = {
    // Unset, the data folder is the one the process runs in (the checkout, through pnpm).
    dataDir: env.BERTH_DATA_DIR ? resolve(callerFolder(env), env.BERTH_DATA_DIR) : resolve('./data'),
    host: env.HOST || '0.0.0.0',
    // 0: any free port (the tests' servers).
    port: integer(env, 'PORT', 3000, { min: 0, max: 65535 }),
    roles: roles(env.BERTH_ROLES),
    tokenLifetimeSeconds: integer(env, 'BERTH_TOKEN_LIFETIME_SECONDS', 24 * 3600, duration(1)),
    // 0: answer without waiting for the read models.
    projectionWaitMs: integer(env, 'BERTH_PROJECTION_WAIT_MS', 5000, duration(0)),
    sqliteSynchronous: oneOf(env, 'BERTH_SQLITE_SYNCHRONOUS', ['FULL', 'NORMAL'], 'FULL'),
    instanceKey: instanceKeyFrom(env),
    logLevel: oneOf(env, 'BERTH_LOG_LEVEL', LOG_LEVELS, 'info'),
    invitationLifetimeSeconds: integer(env, 'BERTH_INVITATION_LIFETIME_SECONDS', 24 * 3600, duration(1)),
    // None allowed, or a window of nothing, would lock every account out, or count nothing.
    attemptsPerAccount: integer(env, 'BERTH_ATTEMPTS_PER_ACCOUNT', 5, { min: 1 }),
    attemptsPerAddress: integer(env, 'BERTH_ATTEMPTS_PER_ADDRESS', 20, { min: 1 }),
    attemptWindowSeconds: integer(env, 'BERTH_ATTEMPT_WINDOW_SECONDS', 15 * 60, duration(1)),
    // None: the TCP peer is the client, and X-Forwarded-For is never read.
    trustedProxies: trustedProxies(env),
    engineSocket: engineSocket(env),
    publishMode: oneOf(env, 'BERTH_PUBLISH_MODE', ['host', 'ingress'], 'host'),
    // Below a second no task starts: every deployment would fail.
    taskStartTimeoutMs: integer(env, 'BERTH_TASK_START_TIMEOUT_MS', 60_000, duration(1000)),
    // The engine's own default: an update watches each new task this long for a failure.
    taskSteadyMs: integer(env, 'BERTH_TASK_STEADY_MS', 5_000, duration(0)),
    proxyDir: '',
    proxyNetwork: proxyNetwork(env),
    registryImage: env.BERTH_REGISTRY_IMAGE || 'registry:2',
    metrics: onOff(env, 'BERTH_METRICS', 'on'),
    readyMaxLag: integer(env, 'BERTH_READY_MAX_LAG', 1000, { min: 0 }),
    readyMaxLagSeconds: integer(env, 'BERTH_READY_MAX_LAG_SECONDS', 10, duration(0)),
    eventStoreUrl: env.BERTH_EVENTSTORE_URL || undefined,
    mongoUrl: env.BERTH_MONGO_URL || undefined,
    // 0: one attempt, no waiting.
    connectTimeoutSeconds: integer(env, 'BERTH_CONNECT_TIMEOUT_SECONDS', 60, duration(0)),
    // Renewed every quarter of it: shorter, a busy event loop would lose the lease.
    leaseTtlMs: integer(env, 'BERTH_LEASE_TTL_MS', 10_000, duration(1000)),
    notifyRetryMs: integers(env, 'BERTH_NOTIFY_RETRY_MS', [1000, 10_000, 60_000, 300_000], duration(0)),
    notifyTimeoutMs: integer(env, 'BERTH_NOTIFY_TIMEOUT_MS', 10_000, duration(1)),
    natsUrl: env.BERTH_NATS_URL || undefined,
    deployConcurrency: integer(env, 'BERTH_DEPLOY_CONCURRENCY', 4, { min: 1 }),
    keepDeployments: integer(env, 'BERTH_KEEP_DEPLOYMENTS', 10, { min: 1 }),
    // A run is history an operator reads: two days of hourly runs, more than a keepLatest usually keeps.
    keepBackupRuns: integer(env, 'BERTH_KEEP_BACKUP_RUNS', 50, { min: 1 }),
    actionWaitMs: integer(env, 'BERTH_ACTION_WAIT_MS', 60_000, duration(1)),
    engineRecheckMs: integer(env, 'BERTH_ENGINE_RECHECK_MS', 300_000, duration(1000)),
    databaseProfiles: overrides.databaseProfiles ?? databaseProfiles(env),
    removeDatabaseVolumes: onOff(env, 'BERTH_REMOVE_DATABASE_VOLUMES', 'off'),
    ...overrides,
  };
  // Beside the data by default, wherever the data folder was put.
  return { ...config, proxyDir: overrides.proxyDir ?? (env.BERTH_PROXY_DIR ? resolve(callerFolder(env), env.BERTH_PROXY_DIR) : join(config.dataDir, 'proxy')) };
}
