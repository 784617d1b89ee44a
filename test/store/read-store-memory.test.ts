// The read models' in-memory cache holds a bounded amount however large the records: a count of
// documents alone let a few thousand large ones (a long env, a stack file) stay in memory whole.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'node:test';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const MB = 1024 * 1024;
const live = () => {
  collect();
  return process.memoryUsage().heapUsed;
};

test('the read models keep at most about 16 MB of documents in memory, however large the documents', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-read-memory-'));
  const store = new SqliteReadStore(join(dir, 'read-models.db'), { cache: true });
  try {
    const before = live();
    const COUNT = 2000; // of 50 KB each: 100 MB of documents, well under the 8,192 kept by count
    for (let batch = 0; batch < COUNT; batch += 100) {
      const writes = Array.from({ length: 100 }, (_, i) => ({
        collection: 'application', id: `app-${batch + i}`, doc: { applicationId: `app-${batch + i}`, env: `${batch + i}`.padEnd(50_000, 'x') },
      }));
      await store.commit(['p'], batch + 1, writes);
    }
    for (let i = 0; i < COUNT; i++) assert.equal(((await store.get('application', `app-${i}`))?.env as string).length, 50_000);
    const held = live() - before;
    t.diagnostic(`held after reading every document: ${(held / MB).toFixed(1)} MB`);
    assert.ok(held < 40 * MB, `the store holds ${(held / MB).toFixed(1)} MB after reading ${COUNT} documents of 50 KB`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the lookups kept in memory hold at most about 4 MB per collection, however many and large their answers', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-read-memory-'));
  const store = new SqliteReadStore(join(dir, 'read-models.db'), { cache: true });
  try {
    const COUNT = 1000; // deployments of 50 KB each, one per application: 1,000 answers of one large record, 50 MB
    for (let batch = 0; batch < COUNT; batch += 100) {
      const writes = Array.from({ length: 100 }, (_, i) => ({
        collection: 'deployment', id: `d-${batch + i}`, doc: { deploymentId: `d-${batch + i}`, applicationId: `app-${batch + i}`, reason: 'x'.repeat(50_000) },
      }));
      await store.commit(['p'], batch + 1, writes);
    }
    await store.ensureIndex('deployment', 'applicationId');
    const before = live();
    for (let i = 0; i < COUNT; i++) assert.equal((await store.find('deployment', 'applicationId', `app-${i}`)).length, 1);
    const held = live() - before;
    t.diagnostic(`held after ${COUNT} lookups: ${(held / MB).toFixed(1)} MB`);
    assert.ok(held < 10 * MB, `the store holds ${(held / MB).toFixed(1)} MB after ${COUNT} lookups of a 50 KB record`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
