import { accessSync, chmodSync, constants, mkdirSync, statSync } from 'node:fs';
import { MemoryBus } from '../adapters/bus/memory-bus.ts';
import type { Bus } from '../ports/bus.ts';
import { dockerTaskExec } from '../adapters/docker/exec.ts';
import { databaseServicesOn, type DatabaseServicesOf } from '../databases/services.ts';
import { dockerStacks } from '../adapters/docker/stack.ts';
import type { StackEngine } from '../ports/stack-engine.ts';
import type { TaskExec } from '../ports/task-exec.ts';
import type { SecretBox } from '../crypto/secrets.ts';
import type { Clock } from '../ports/clock.ts';
import { systemClock } from '../ports/clock.ts';
import { dockerClient, dockerEngine } from '../adapters/docker/engine.ts';
import type { ContainerEngine } from '../ports/container-engine.ts';
import type { Forge } from '../ports/forge.ts';
import { restForge } from '../adapters/forge/rest.ts';
import type { EventStore } from '../ports/event-store.ts';
import type { OpenObjectStorage } from '../ports/object-storage.ts';
import type { ReadStore } from '../ports/read-store.ts';
import { isScaledOut, type Config } from './config.ts';
import type { Leases } from '../ports/lease.ts';
import type { Checkpoint } from '../ports/checkpoint.ts';
import { fileCheckpoint } from '../adapters/file-checkpoint.ts';
import { join } from 'node:path';
import { deriveKey, loadInstanceKey, secretBoxOf } from './keys.ts';
import { verifyInstanceKey } from './key-check.ts';
import { connectWithBackoff, openEventStore, openReadStore } from './stores.ts';
import { lockDataFolder, type FolderLock } from './folder-lock.ts';
import { messageOf } from '../errors.ts';

/** What every role is given: the ports, wired to the adapters the configuration names. */
export interface Infrastructure {
  readonly config: Config;
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly secrets: SecretBox;
  readonly tokenKey: Uint8Array;
  readonly clock: Clock;
  /** Connects on first use: roles that never ask the engine never reach it. */
  readonly engine: ContainerEngine;
  /** The forge's app-installation REST API. */
  readonly forge: Forge;
  /** The bus, connected on first use (only the relay and the reactors use it). */
  bus(): Promise<Bus>;
  /** Leases for one active writer across processes: when scaled out with NATS, else null (one process). */
  leases(): Promise<Leases | null>;
  /** How far the relay has published the log: in NATS when there is one (every process reads it), else a file. */
  relayCheckpoint(): Promise<Checkpoint>;
  /**
   * Keeps `role`'s singleton work on the SQLite stores (no NATS lease) to this process: takes the
   * role's lock of the data folder (and without NATS the whole folder's) once, or throws
   * FolderInUseError; held until close(), whatever roles stop before.
   */
  holdDataFolder(role: string): void;
  /** Opens the bucket a destination names. */
  readonly objectStorage: OpenObjectStorage;
  /** Runs commands inside the running task of a service (dumps and restores). */
  readonly taskExec: TaskExec;
  /** Database services, on the engine. */
  readonly databaseServices: DatabaseServicesOf;
  /** A compose stack's networks and namespace on the orchestrator. */
  readonly stacks: StackEngine;
  close(): Promise<void>;
}

export async function openInfrastructure(config: Config, clock: Clock = systemClock): Promise<Infrastructure> {
  prepareDataFolder(config.dataDir);
  // Checked here, not when the first proxy file is written: a file there failed each write, later.
  folderAt('BERTH_PROXY_DIR', config.proxyDir);
  const instanceKey = loadInstanceKey(config.dataDir, config.instanceKey);
  const eventStore = await openEventStore(config);
  // Before anything is served or sealed: a process with another key would make the others' secrets unreadable.
  await verifyInstanceKey(eventStore, instanceKey, clock).catch(async (error: unknown) => {
    await eventStore.close();
    throw error;
  });
  const readStore = await openReadStore(config).catch(async (error: unknown) => {
    await eventStore.close();
    throw error;
  });
  const { natsUrl } = config;
  // The NATS and S3 clients are imported when first used: the embedded default never holds the first.
  const bus = connectOnce<Bus>(async () => natsUrl
    ? (await import('../adapters/bus/nats-bus.ts')).NatsBus.connect(natsUrl) : new MemoryBus());
  const leases = connectOnce<Leases | null>(async () => natsUrl && isScaledOut(config)
    ? (await import('../adapters/nats/leases.ts')).NatsLeases.connect(natsUrl, { ttlMs: config.leaseTtlMs }) : null);
  const relayCheckpoint = connectOnce<Checkpoint & { close?(): Promise<void> }>(async () => natsUrl
    ? (await import('../adapters/nats/kv-checkpoint.ts')).natsCheckpoint(natsUrl, 'relay') : fileCheckpoint(join(config.dataDir, 'relay.checkpoint')));
  const docker = dockerClient(config.engineSocket);
  const engine = dockerEngine(docker);
  // The process's, not a role's: the folder is handed over when the infrastructure closes (or the process dies).
  let folderLock: FolderLock | null = null;
  const roleLocks = new Map<string, FolderLock>();
  const infrastructure: Infrastructure = {
    config,
    bus: bus.get,
    leases: leases.get,
    relayCheckpoint: relayCheckpoint.get,
    holdDataFolder(role) {
      // Without NATS all of the folder's singleton work is one process's; with it, each role's is.
      if (!natsUrl) folderLock ??= lockDataFolder(config.dataDir);
      if (!roleLocks.has(role)) roleLocks.set(role, lockDataFolder(config.dataDir, role));
    },
    eventStore,
    readStore,
    secrets: secretBoxOf(instanceKey),
    tokenKey: deriveKey(instanceKey, 'tokens'),
    clock,
    engine,
    forge: restForge,
    objectStorage: async (address) => (await import('../adapters/s3/object-storage.ts')).openS3Storage(address),
    taskExec: dockerTaskExec(docker),
    databaseServices: databaseServicesOn(engine),
    stacks: dockerStacks(docker),
    async close() {
      try {
        await bus.close((opened) => opened.close());
        await leases.close((opened) => opened?.close());
        await relayCheckpoint.close((opened) => opened.close?.());
        await eventStore.close();
        await readStore.close();
      } finally {
        // Last: nothing of this process writes to the folder once the next one may.
        for (const lock of roleLocks.values()) lock.release();
        roleLocks.clear();
        folderLock?.release();
        folderLock = null;
      }
    },
  };
  // The relay and the reactors wait for the bus as they start; the API, which only checks it, would
  // otherwise serve without one: a bus that cannot be reached stops its start the same way.
  if (natsUrl && config.roles.includes('api')) {
    await waitedFor(infrastructure, 'the bus', infrastructure.bus).catch(async (error: unknown) => {
      await infrastructure.close();
      throw error;
    });
  }
  return infrastructure;
}

/**
 * The data folder, private to Berth's user: its logs hold accounts and sealed secrets. Made 0700; one
 * made before (0755) is tightened when it is this user's (another owner's, a mounted volume say, is
 * theirs to set). Only the folder: files under it cannot be reached through it, and a process-wide
 * umask would also reach the sources folders that containers mount.
 */
function prepareDataFolder(dir: string): void {
  folderAt('BERTH_DATA_DIR', dir, 0o700);
  const { uid, mode } = statSync(dir);
  if (uid === process.getuid?.() && (mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/**
 * `dir` as a folder this process can write in, made (with `mode`) when missing; else an error naming
 * `variable`, which the system's own (EEXIST, ENOENT, EACCES of a path) does not.
 */
function folderAt(variable: string, dir: string, mode?: number): void {
  let reason: string | undefined;
  try {
    const found = statSync(dir, { throwIfNoEntry: false });
    if (!found) mkdirSync(dir, { recursive: true, mode });
    else if (!found.isDirectory()) reason = 'is not a folder';
    if (!reason) accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    reason = `cannot be used: ${messageOf(error)}`;
  }
  if (reason) throw new Error(`${variable} ${dir} ${reason}`);
}

/**
 * What a role needs from NATS before it can work, waited for while NATS cannot be reached (it may
 * be starting beside this process), within the configured bound; a check (`/ready`) asks without it.
 */
export const waitedFor = <T>(infra: Infrastructure, what: string, get: () => Promise<T>): Promise<T> =>
  connectWithBackoff(`${what} (NATS)`, infra.config, get, { variable: 'BERTH_NATS_URL', url: infra.config.natsUrl ?? '' });

/**
 * Connects on first use and keeps the connection; a failed attempt is forgotten, so the next use
 * tries again (NATS may be down when a scrape or a readiness check first asks).
 */
function connectOnce<T>(open: () => Promise<T>) {
  let opening: Promise<T> | null = null;
  return {
    get: (): Promise<T> => (opening ??= open().catch((error: unknown) => {
      opening = null;
      throw error;
    })),
    async close(closeIt: (opened: T) => Promise<void> | undefined): Promise<void> {
      const opened = await opening?.catch(() => null);
      if (opened !== undefined && opened !== null) await closeIt(opened);
    },
  };
}
