import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fold } from '../aggregate.ts';
import { specOf } from '../testing.ts';
import { attemptSlotsAggregate, slotWaitSeconds, type AttemptSlotsEvent } from './throttle.ts';

const limit = { attempts: 2, windowMs: 60_000 };
const started = (attemptId: string, at: string): AttemptSlotsEvent =>
  ({ type: 'AttemptStarted', data: { key: 'k', attemptId, at, windowMs: 60_000 } });

describe('attempt slots', () => {
  it('allows attempts until the limit of slots taken in the window', () => {
    const state = fold(attemptSlotsAggregate, [started('a', '2026-01-01T00:00:00.000Z')]);
    assert.equal(slotWaitSeconds(state, '2026-01-01T00:00:10.000Z', limit), 0);
  });
  it('asks to wait until the oldest counted slot leaves the window', () => {
    const state = fold(attemptSlotsAggregate, [started('a', '2026-01-01T00:00:00.000Z'), started('b', '2026-01-01T00:00:20.000Z')]);
    assert.equal(slotWaitSeconds(state, '2026-01-01T00:00:30.000Z', limit), 30);
    assert.equal(slotWaitSeconds(state, '2026-01-01T00:01:00.000Z', limit), 0);
  });
  it('refuses a slot past the limit, recording nothing', () => {
    specOf(attemptSlotsAggregate).given([started('a', '2026-01-01T00:00:00.000Z'), started('b', '2026-01-01T00:00:01.000Z')])
      .when({ type: 'TakeSlot', data: { key: 'k', attemptId: 'c', at: '2026-01-01T00:00:02.000Z', limit } }).thenFails('TOO_MANY_REQUESTS');
  });
  it('frees a slot given back, with the earlier ones when asked', () => {
    const events = [started('a', '2026-01-01T00:00:00.000Z'), started('b', '2026-01-01T00:00:01.000Z')];
    const one = fold(attemptSlotsAggregate, [...events, { type: 'AttemptSucceeded', data: { key: 'k', attemptId: 'b', withEarlier: false } }]);
    assert.deepEqual(one?.taken.map((slot) => slot.attemptId), ['a']);
    const all = fold(attemptSlotsAggregate, [...events, { type: 'AttemptSucceeded', data: { key: 'k', attemptId: 'b', withEarlier: true } }]);
    assert.deepEqual(all?.taken, []);
  });
});
