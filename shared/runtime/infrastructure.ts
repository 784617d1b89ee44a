import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '../adapters/sqlite/event-store.ts';
import { SqliteReadStore } from '../adapters/sqlite/read-store.ts';
import { MemoryBus } from '../adapters/bus/memory-bus.ts';
import { NatsBus } from '../adapters/bus/nats-bus.ts';
import type { Bus } from '../ports/bus.ts';
import { openS3Storage } from '../adapters/s3/object-storage.ts';
import Docker from 'dockerode';
import { dockerTaskExec } from '../adapters/docker/exec.ts';
import { dockerDatabaseServices } from '../adapters/docker/database-services.ts';
import type { DatabaseServices } from '../ports/database-services.ts';
import type { TaskExec } from '../ports/task-exec.ts';
import { SecretBox } from '../crypto/secrets.ts';
import type { Clock } from '../ports/clock.ts';
import { systemClock } from '../ports/clock.ts';
import { dockerEngine } from '../adapters/docker/engine.ts';
import type { ContainerEngine } from '../ports/container-engine.ts';
import type { EventStore } from '../ports/event-store.ts';
import type { OpenObjectStorage } from '../ports/object-storage.ts';
import type { ReadStore } from '../ports/read-store.ts';
import type { Config } from './config.ts';
import { deriveKey, loadInstanceKey } from './keys.ts';

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
  /** The bus, connected on first use (only the relay and the reactors use it). */
  bus(): Promise<Bus>;
  /** Opens the bucket a destination names. */
  readonly objectStorage: OpenObjectStorage;
  /** Runs commands inside the running task of a service (dumps and restores). */
  readonly taskExec: TaskExec;
  /** Database services on the orchestrator. */
  readonly databaseServices: DatabaseServices;
  close(): Promise<void>;
}

export function openInfrastructure(config: Config, clock: Clock = systemClock): Infrastructure {
  mkdirSync(config.dataDir, { recursive: true });
  const instanceKey = loadInstanceKey(config.dataDir, config.instanceKey);
  const eventStore = new SqliteEventStore(join(config.dataDir, 'events.db'), { synchronous: config.sqliteSynchronous });
  // Its cache is safe only while this process is the one that writes the read models.
  const readStore = new SqliteReadStore(join(config.dataDir, 'read-models.db'), { cache: config.roles.includes('projections') });
  let bus: Promise<Bus> | null = null;
  // The engine the environment names (DOCKER_HOST), else the local socket.
  const docker = new Docker();
  return {
    config,
    bus: () => (bus ??= config.natsUrl ? NatsBus.connect(config.natsUrl) : Promise.resolve(new MemoryBus())),
    eventStore,
    readStore,
    secrets: new SecretBox(Buffer.from(deriveKey(instanceKey, 'secrets'))),
    tokenKey: deriveKey(instanceKey, 'tokens'),
    clock,
    engine: dockerEngine(config.engineSocket),
    objectStorage: openS3Storage,
    taskExec: dockerTaskExec(docker),
    databaseServices: dockerDatabaseServices(docker),
    async close() {
      if (bus) await (await bus).close();
      await eventStore.close();
      await readStore.close();
    },
  };
}
