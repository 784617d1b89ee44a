import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runsToPrune } from './run-bound.ts';

const run = (runId: string, status: 'running' | 'done' | 'error', finishedAt: string | null) => ({ runId, status, finishedAt });

describe('the runs a backup keeps', () => {
  const runs = [
    run('a', 'done', '2026-01-01T00:01:00.000Z'), run('b', 'error', '2026-01-01T00:03:00.000Z'),
    run('c', 'running', null), run('d', 'done', '2026-01-01T00:02:00.000Z'),
  ];
  it('prunes the finished runs beyond the newest to end, never one under way', () => {
    assert.deepEqual(runsToPrune(runs, 2).map((r) => r.runId), ['a']);
    assert.deepEqual(runsToPrune(runs, 3).map((r) => r.runId), []);
  });
  it('prunes every finished run at 0 (the backup is gone)', () => {
    assert.deepEqual(runsToPrune(runs, 0).map((r) => r.runId), ['b', 'd', 'a']);
  });
});
