import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prune, staleKeys } from './transfer.ts';
import { memoryStorage, testPlan } from './testing.ts';

const at = (day: number, folder = 'db') => `${folder}/2026-01-0${day}T03:00:00.000Z.dump.gz`;

describe('keepLatest', () => {
  it('removes only the backup\'s own oldest objects, never a sub-folder\'s (another backup\'s)', async () => {
    const storage = memoryStorage([at(1), at(2), at(3), at(1, 'db/nested'), at(2, 'db/nested'), at(3, 'db/nested'), 'db/README.dump.gz']);
    assert.deepEqual(await prune(testPlan({ prefix: 'db' }), storage, 2), [at(1)]);
    assert.deepEqual([...storage.keys].sort(), [at(1, 'db/nested'), at(2, 'db/nested'), at(3, 'db/nested'), at(2), at(3), 'db/README.dump.gz'].sort());
  });

  it('keeps the newest by the timestamp in the name, whatever order the listing comes in', () => {
    assert.deepEqual(staleKeys(testPlan({ prefix: 'db' }), [at(3), at(1), at(2)], 1), [at(1), at(2)]);
    assert.deepEqual(staleKeys(testPlan({ prefix: 'db' }), [at(1)], 3), []);
  });
});
