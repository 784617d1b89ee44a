// `pnpm rebuild-projections`: replays the whole log into the read models, on the stores the
// runtime's configuration names (the SQLite files of the data folder, or EventStoreDB and
// MongoDB when scaled out), opened as every role opens them. Run it with Berth stopped: it clears
// the read models first. `berth projections rebuild` rebuilds while Berth serves.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { configFrom, type Config } from '@berth/shared/runtime/config';
import { openEventStore, openReadStore } from '@berth/shared/runtime/stores';
import { rebuildInto } from './rebuild.ts';
import { FolderInUseError, lockDataFolder } from '@berth/shared/runtime/folder-lock';
import { messageOf } from '@berth/shared/errors';


/**
 * Opens a store, naming the SQLite file in the error when it cannot (better-sqlite3's errors do not
 * name it); `file` is null for the scaled-out servers, whose errors already say which they are.
 */
async function opened<T>(file: string | null, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (file === null) throw error;
    throw new Error(`cannot open ${file}: ${messageOf(error)}`, { cause: error });
  }
}

interface Guard { release(): Promise<void> }

/** How long the rebuild waits to take the projections' lease: a holder that is alive never lets it go. */
const LEASE_WAIT_MS = 2000;

/**
 * Keeps the projections role off the read models for the rebuild: on the data folder, its lock;
 * scaled out with NATS, its lease (a projections process started meanwhile waits for it). Refuses
 * while a projections process holds either. Without either (MongoDB, no NATS) nothing can tell.
 */
async function guardProjections(config: Config): Promise<Guard> {
  if (!config.mongoUrl) {
    try {
      const lock = lockDataFolder(config.dataDir, 'projections');
      return { release: async () => lock.release() };
    } catch (error) {
      throw error instanceof FolderInUseError
        ? new Error(`Berth's projections run on ${config.dataDir}: stop Berth first, or rebuild while it serves with \`berth projections rebuild\``)
        : error;
    }
  }
  if (!config.natsUrl) return { release: async () => {} };
  const { NatsLeases } = await import('@berth/shared/adapters/nats/leases');
  const leases = await NatsLeases.connect(config.natsUrl, { ttlMs: config.leaseTtlMs });
  let taken: () => void = () => {};
  const held = new Promise<boolean>((resolve) => {
    taken = () => resolve(true);
    setTimeout(() => resolve(false), LEASE_WAIT_MS).unref();
  });
  const lease = leases.hold('projections', { start: async () => taken(), stop: async () => {} });
  const release = async () => {
    await lease.release();
    await leases.close();
  };
  if (!(await held)) {
    await release();
    // Neither URL is named: either may carry a password.
    throw new Error("Berth's projections run on these read models (a process holds their NATS lease): stop them first, or rebuild while Berth serves with `berth projections rebuild`");
  }
  return { release };
}

export async function rebuildStores(config: Config): Promise<{ events: number; seconds: number }> {
  const started = performance.now();
  // The files openEventStore and openReadStore open when no server is configured.
  const inDataDir = (file: string, server: string | undefined) => (server ? null : join(config.dataDir, file));
  const events = await opened(inDataDir('events.db', config.eventStoreUrl), () => openEventStore(config));
  // No projections role here: the store's cache stays off.
  const openReads = () => openReadStore({ ...config, roles: [] });
  // The read models are cleared first: never under a projections process that runs on them (it
  // would write its checkpoints past what the rebuild then skips).
  let guard: Guard;
  try {
    guard = await guardProjections(config);
  } catch (error) {
    await events.close();
    throw error;
  }
  const reads = await opened(inDataDir('read-models.db', config.mongoUrl), openReads).catch(async (error: unknown) => {
    await guard.release();
    await events.close();
    throw error;
  });
  try {
    const count = await rebuildInto(events, reads);
    return { events: count, seconds: (performance.now() - started) / 1000 };
  } finally {
    await Promise.all([events.close(), reads.close()]);
    await guard.release();
  }
}

const USAGE = 'usage: pnpm rebuild-projections (no arguments): with Berth stopped, replays the whole log into the read models of the stores BERTH_DATA_DIR, BERTH_EVENTSTORE_URL and BERTH_MONGO_URL name, clearing them first';

async function main(args: readonly string[]): Promise<void> {
  // It clears the read models: an argument it does not know (a --help, a typo) never runs it.
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    console.log(USAGE);
    return;
  }
  if (args.length > 0) {
    console.error(`rebuild-projections takes no arguments (got ${args.join(' ')}); ${USAGE}`);
    process.exitCode = 2;
    return;
  }
  try {
    const { events, seconds } = await rebuildStores(configFrom());
    console.log(`rebuilt the read models from ${events} events in ${seconds.toFixed(2)} s (${Math.round(events / seconds)} events/s)`);
  } catch (error) {
    // What stops a rebuild is the operator's to fix (a wrong BERTH_DATA_DIR, a store down): one line, not a stack.
    console.error(`rebuild-projections failed: ${messageOf(error)}`);
    process.exitCode = 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main(process.argv.slice(2));
