import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRestorable, latestKey } from './restore-key.ts';
import { testPlan } from './testing.ts';

const at = (day: number, folder = 'db') => `${folder}/2026-01-0${day}T03:00:00.000Z.dump.gz`;
const run = (key: string, startedAt: string, fields: Record<string, unknown> = {}) => ({ kind: 'backup', status: 'done', key, startedAt, ...fields });

describe('the object a restore loads', () => {
  it('is the newest successful backup run\'s, never a failed one\'s nor a restore\'s', () => {
    const runs = [run(at(1), '2026-01-01'), run(at(3), '2026-01-03', { status: 'error' }), run(at(2), '2026-01-02'), run(at(2), '2026-01-04', { kind: 'restore' })];
    assert.equal(latestKey(runs), at(2));
    assert.equal(latestKey([]), null);
  });

  it('may be named by a key of the backup\'s folder, or of one of its runs from before its prefix changed, and nothing else', () => {
    const plan = testPlan({ prefix: 'db-new' });
    const runs = [run(at(1), '2026-01-01')];
    assert.equal(isRestorable(plan, runs, at(2, 'db-new')), true);
    assert.equal(isRestorable(plan, runs, at(1)), true, 'a run of this backup wrote it, under its former prefix');
    assert.equal(isRestorable(plan, runs, at(2)), false, 'no run of it wrote that one');
    assert.equal(isRestorable(plan, [run(at(2), '2026-01-02', { status: 'error' })], at(2)), false);
  });
});
