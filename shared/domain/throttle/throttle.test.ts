import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fold } from '../aggregate.ts';
import { specOf } from '../testing.ts';
import { retryAfterSeconds, throttleAggregate, type ThrottleEvent } from './throttle.ts';

const limit = { attempts: 2, windowMs: 60_000 };
const failed = (at: string): ThrottleEvent => ({ type: 'AttemptFailed', data: { key: 'k', at, windowMs: 60_000 } });

describe('throttle', () => {
  it('allows attempts until the limit of failures in the window', () => {
    const state = fold(throttleAggregate, [failed('2026-01-01T00:00:00.000Z')]);
    assert.equal(retryAfterSeconds(state, '2026-01-01T00:00:10.000Z', limit), 0);
  });
  it('asks to wait until the oldest counted failure leaves the window', () => {
    const state = fold(throttleAggregate, [failed('2026-01-01T00:00:00.000Z'), failed('2026-01-01T00:00:20.000Z')]);
    assert.equal(retryAfterSeconds(state, '2026-01-01T00:00:30.000Z', limit), 30);
    assert.equal(retryAfterSeconds(state, '2026-01-01T00:01:00.000Z', limit), 0);
  });
  it('records nothing for an attempt past the limit', () => {
    specOf(throttleAggregate).given([failed('2026-01-01T00:00:00.000Z'), failed('2026-01-01T00:00:01.000Z')])
      .when({ type: 'RecordFailure', data: { key: 'k', at: '2026-01-01T00:00:02.000Z', limit } }).then([]);
  });
});
