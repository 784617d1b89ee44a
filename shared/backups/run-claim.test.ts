// Who may take a backup's run claim: only from a run that ended, or from one never started whose
// claim is older than this reactors term (its process went away between the claim and the start).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideClaim, type Holder } from './run-claim.ts';

const termBegan = new Date('2026-06-01T12:00:00.000Z');
const holder = (run: Holder['run'], claimedAt = '2026-06-01T12:05:00.000Z'): Holder => ({ runId: 'r1', claimedAt: new Date(claimedAt), run });

describe('a backup run claim', () => {
  it('is taken when nobody holds it, and held again by the run that holds it', () => {
    assert.deepEqual(decideClaim('r2', null, termBegan), { take: true });
    assert.deepEqual(decideClaim('r1', holder('running'), termBegan), { take: true });
  });

  it('is refused, naming the run, while the holder runs or is about to start in this term', () => {
    assert.deepEqual(decideClaim('r2', holder('running'), termBegan), { take: false, busyWith: 'r1' });
    assert.deepEqual(decideClaim('r2', holder('absent'), termBegan), { take: false, busyWith: 'r1' });
  });

  it('is taken over from a run that ended, or one never started from before this term', () => {
    assert.deepEqual(decideClaim('r2', holder('ended'), termBegan), { take: true, from: 'r1' });
    assert.deepEqual(decideClaim('r2', holder('absent', '2026-06-01T11:00:00.000Z'), termBegan), { take: true, from: 'r1' });
  });
});
