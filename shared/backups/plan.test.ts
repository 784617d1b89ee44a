import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isOwnKey, objectKey } from './plan.ts';
import { testPlan } from './testing.ts';

describe('the keys a backup owns', () => {
  const plan = testPlan({ prefix: 'db' });

  it('are the direct children of its folder named <ISO timestamp>.<ext>.gz for its engine', () => {
    assert.equal(isOwnKey(plan, objectKey(plan, new Date('2026-01-02T03:00:00Z'))), true);
    assert.equal(isOwnKey(testPlan({ prefix: 'db/' }), 'db/2026-01-02T03:00:00.000Z.dump.gz'), true);
  });

  it('are never a sub-folder\'s, another engine\'s, or an object not named by a timestamp', () => {
    for (const key of [
      'db/nested/2026-01-02T03:00:00.000Z.dump.gz', 'db/2026-01-02T03:00:00.000Z.sql.gz', 'db/notes.dump.gz',
      'db/2026-13-02T03:00:00.000Z.dump.gz', 'db/2026-01-02T03:00:00Z.dump.gz', 'dbx/2026-01-02T03:00:00.000Z.dump.gz',
      'db/2026-01-02T03:00:00.000Z.dump.gz.part', 'db/../db/2026-01-02T03:00:00.000Z.dump.gz',
    ]) assert.equal(isOwnKey(plan, key), false, key);
  });
});
