import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
