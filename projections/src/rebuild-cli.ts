// `pnpm rebuild-projections`: replays the whole log into the read models, on the stores the
// runtime's configuration names (the SQLite files of the data folder, or EventStoreDB and
// MongoDB when scaled out), opened as every role opens them. Run it with Berth stopped: it clears
// the read models first. `berth projections rebuild` rebuilds while Berth serves.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { configFrom, type Config } from '@berth/shared/runtime/config';
import { openEventStore, openReadStore } from '@berth/shared/runtime/stores';
import { rebuildInto } from './rebuild.ts';
import { FolderInUseError, lockDataFolder, type FolderLock } from '@berth/shared/runtime/folder-lock';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

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

export async function rebuildStores(config: Config): Promise<{ events: number; seconds: number }> {
  const started = performance.now();
  // The files openEventStore and openReadStore open when no server is configured.
  const inDataDir = (file: string, server: string | undefined) => (server ? null : join(config.dataDir, file));
  const events = await opened(inDataDir('events.db', config.eventStoreUrl), () => openEventStore(config));
  // No projections role here: the store's cache stays off.
  const openReads = () => openReadStore({ ...config, roles: [] });
  // The folder's read models are cleared first: never under a projections process that runs on them
  // (it would write its checkpoints past what the rebuild then skips). Scaled out, Berth must be stopped.
  let projections: FolderLock | null = null;
  try {
    if (!config.mongoUrl) projections = lockDataFolder(config.dataDir, 'projections');
  } catch (error) {
    await events.close();
    throw error instanceof FolderInUseError
      ? new Error(`Berth's projections run on ${config.dataDir}: stop Berth first, or rebuild while it serves with \`berth projections rebuild\``)
      : error;
  }
  const reads = await opened(inDataDir('read-models.db', config.mongoUrl), openReads).catch(async (error: unknown) => {
    projections?.release();
    await events.close();
    throw error;
  });
  try {
    const count = await rebuildInto(events, reads);
    return { events: count, seconds: (performance.now() - started) / 1000 };
  } finally {
    await Promise.all([events.close(), reads.close()]);
    projections?.release();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const { events, seconds } = await rebuildStores(configFrom());
    console.log(`rebuilt the read models from ${events} events in ${seconds.toFixed(2)} s (${Math.round(events / seconds)} events/s)`);
  } catch (error) {
    // What stops a rebuild is the operator's to fix (a wrong BERTH_DATA_DIR, a store down): one line, not a stack.
    console.error(`rebuild-projections failed: ${messageOf(error)}`);
    process.exitCode = 1;
  }
}
