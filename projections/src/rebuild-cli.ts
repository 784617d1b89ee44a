// `pnpm rebuild-projections`: replays the whole log into a new read-model file beside the live
// one, then switches to it in one rename. Run it with Berth stopped: a running process keeps the
// file it opened.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import { configFrom } from '@berth/shared/runtime/config';
import { rebuildInto } from './rebuild.ts';

const { dataDir } = configFrom();
const events = new SqliteEventStore(join(dataDir, 'events.db'));
const live = join(dataDir, 'read-models.db');
const beside = join(dataDir, 'read-models.rebuild.db');
for (const suffix of ['', '-wal', '-shm']) rmSync(beside + suffix, { force: true });

const started = performance.now();
const target = new SqliteReadStore(beside);
const count = await rebuildInto(events, target);
await target.close();
await events.close();
for (const suffix of ['-wal', '-shm']) if (existsSync(live + suffix)) rmSync(live + suffix);
renameSync(beside, live);
const seconds = (performance.now() - started) / 1000;
console.log(`rebuilt the read models from ${count} events in ${seconds.toFixed(2)} s (${Math.round(count / seconds)} events/s)`);
