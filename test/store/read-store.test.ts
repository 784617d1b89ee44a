import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import { readStoreConformance } from './read-store-conformance.ts';

for (const cache of [false, true]) {
  readStoreConformance(`sqlite (${cache ? 'writer with cache' : 'no cache'})`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-read-'));
    let first = true;
    return {
      // The first handle is the writer: only it may keep a cache.
      async open() {
        const store = new SqliteReadStore(join(dir, 'read-models.db'), { cache: cache && first });
        first = false;
        return store;
      },
      async dispose() { rmSync(dir, { recursive: true, force: true }); },
    };
  });
}

test('a read-model file from before collections had tables of their own opens with its documents, lookups and checkpoints', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-read-legacy-'));
  try {
    const path = join(dir, 'read-models.db');
    // The layout Berth wrote until now: one table for every collection, partial indexes per lookup.
    const legacy = new Database(path);
    legacy.exec(`
      CREATE TABLE docs (collection TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (collection, id)) WITHOUT ROWID;
      CREATE TABLE checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
      CREATE INDEX docs_application_by_projectId ON docs (json_extract(doc, '$.projectId')) WHERE collection = 'application';
      INSERT INTO docs VALUES ('project', 'p1', '{"projectId":"p1","name":"shop"}'),
        ('application', 'a1', '{"applicationId":"a1","projectId":"p1"}'), ('application', 'a2', '{"applicationId":"a2","projectId":"p2"}');
      INSERT INTO checkpoints VALUES ('entity:project', 41), ('entity:application', 42);`);
    legacy.close();

    for (const cache of [false, true]) {
      const store = new SqliteReadStore(path, { cache });
      await store.ensureIndex('application', 'projectId');
      assert.deepEqual(await store.get('project', 'p1'), { projectId: 'p1', name: 'shop' });
      assert.deepEqual(await store.find('application', 'projectId', 'p1'), [{ applicationId: 'a1', projectId: 'p1' }]);
      assert.equal((await store.all('application')).length, 2);
      assert.deepEqual([...await store.checkpoints()].sort(), [['entity:application', 42], ['entity:project', 41]]);
      await store.close();
    }
    const reopened = new Database(path);
    const tables = reopened.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    reopened.close();
    assert.deepEqual(tables, ['checkpoints', 'collection_application', 'collection_project']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
