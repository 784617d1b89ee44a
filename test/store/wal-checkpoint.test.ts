// The embedded stores' write-ahead logs are copied back into their files by a worker thread, not
// by the committing request: the files must still fill while the stores are open, and the logs
// be gone once they close.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import { newId } from '@berth/shared/ids';
import { events } from './event-store-conformance.ts';

const dirs: string[] = [];
after(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }); });

const MB = 1024 * 1024;
/** More than SQLite's own 1,000-page checkpoint bound, far less than the writer's backstop. */
const WRITTEN = 8 * MB;
const padding = 'x'.repeat(16 * 1024);

const fileOf = () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-wal-'));
  dirs.push(dir);
  return join(dir, 'store.db');
};

/** The file's size once it holds everything written (the last commits too), or after 5 s. */
async function filled(path: string): Promise<number> {
  const deadline = Date.now() + 5000;
  while (statSync(path).size < WRITTEN && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return statSync(path).size;
}

test('the event log file fills from its write-ahead log while the store is open, and the write-ahead log is gone after close', async () => {
  const path = fileOf();
  const store = new SqliteEventStore(path);
  for (let written = 0; written < WRITTEN; written += 16 * padding.length) {
    await Promise.all(Array.from({ length: 16 }, () =>
      store.append(`thing-${newId()}`, events(1, { padding }), 'no_stream')));
  }
  assert.ok(await filled(path) >= WRITTEN, `the log file holds ${statSync(path).size} bytes`);
  assert.equal((await store.readAll(0, 10_000)).length, WRITTEN / padding.length);
  await store.close();
  assert.equal(existsSync(`${path}-wal`), false);
  const reopened = new SqliteEventStore(path);
  assert.equal(await reopened.head(), WRITTEN / padding.length);
  await reopened.close();
});

test('the read-model file fills from its write-ahead log while the store is open, and the write-ahead log is gone after close', async () => {
  const path = fileOf();
  const store = new SqliteReadStore(path, { cache: true });
  let position = 0;
  for (let written = 0; written < WRITTEN; written += 16 * padding.length) {
    const writes = Array.from({ length: 16 }, () => ({ collection: 'things', id: newId(), doc: { padding } }));
    await store.commit(['p'], ++position, writes);
  }
  assert.ok(await filled(path) >= WRITTEN, `the read-model file holds ${statSync(path).size} bytes`);
  assert.equal((await store.all('things')).length, WRITTEN / padding.length);
  await store.close();
  assert.equal(existsSync(`${path}-wal`), false);
});

test('with the log and the read models open in one process, each file still fills after the other closed, and both write-ahead logs are gone', async () => {
  const logPath = fileOf();
  const modelsPath = fileOf();
  const log = new SqliteEventStore(logPath);
  const models = new SqliteReadStore(modelsPath, { cache: true });
  await log.append(`thing-${newId()}`, events(1), 'no_stream');
  await models.commit(['p'], 1, [{ collection: 'things', id: newId(), doc: { padding } }]);
  // The log closes first: the read models' checkpoints must go on without it.
  await log.close();
  assert.equal(existsSync(`${logPath}-wal`), false);
  let position = 1;
  for (let written = 0; written < WRITTEN; written += 16 * padding.length) {
    const writes = Array.from({ length: 16 }, () => ({ collection: 'things', id: newId(), doc: { padding } }));
    await models.commit(['p'], ++position, writes);
  }
  assert.ok(await filled(modelsPath) >= WRITTEN, `the read-model file holds ${statSync(modelsPath).size} bytes`);
  await models.close();
  assert.equal(existsSync(`${modelsPath}-wal`), false);
});
