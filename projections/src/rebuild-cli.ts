// `pnpm rebuild-projections`: replays the whole log into the read models, on the stores the
// runtime's configuration names (the SQLite files of the data folder, or EventStoreDB and
// MongoDB when scaled out), opened as every role opens them. Run it with Berth stopped: it clears
// the read models first. `berth projections rebuild` rebuilds while Berth serves.
import { pathToFileURL } from 'node:url';
import { configFrom, type Config } from '@berth/shared/runtime/config';
import { openEventStore, openReadStore } from '@berth/shared/runtime/stores';
import { rebuildInto } from './rebuild.ts';

export async function rebuildStores(config: Config): Promise<{ events: number; seconds: number }> {
  const started = performance.now();
  const events = await openEventStore(config);
  // No projections role here: the store's cache stays off.
  const reads = await openReadStore({ ...config, roles: [] }).catch(async (error: unknown) => {
    await events.close();
    throw error;
  });
  try {
    const count = await rebuildInto(events, reads);
    return { events: count, seconds: (performance.now() - started) / 1000 };
  } finally {
    await Promise.all([events.close(), reads.close()]);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { events, seconds } = await rebuildStores(configFrom());
  console.log(`rebuilt the read models from ${events} events in ${seconds.toFixed(2)} s (${Math.round(events / seconds)} events/s)`);
}
