// Failed attempts at a guarded operation, per key (an account, an email, a client address).
// Kept in the log, so a limit survives a restart and auditors see every failed attempt.
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';

export interface Throttle {
  key: string;
  /** Times of the failures not yet cleared, oldest first. */
  failures: string[];
}

export interface Limit {
  readonly attempts: number;
  readonly windowMs: number;
}

export type ThrottleCommand =
  | { type: 'RecordFailure'; data: { key: string; at: string; limit: Limit } }
  | { type: 'ClearFailures'; data: { key: string } };

export type ThrottleEvent =
  | { type: 'AttemptFailed'; data: { key: string; at: string; windowMs: number } }
  | { type: 'FailuresCleared'; data: { key: string } };

const recent = (failures: readonly string[], now: string, windowMs: number) =>
  failures.filter((at) => Date.parse(now) - Date.parse(at) < windowMs);

/** Seconds until another attempt is allowed, or 0 when it is allowed now. */
export function retryAfterSeconds(state: Throttle | null, now: string, limit: Limit): number {
  const failures = recent(state?.failures ?? [], now, limit.windowMs);
  if (failures.length < limit.attempts) return 0;
  const oldestCounted = failures[failures.length - limit.attempts]!;
  return Math.max(1, Math.ceil((Date.parse(oldestCounted) + limit.windowMs - Date.parse(now)) / 1000));
}

export const throttleAggregate: Aggregate<Throttle, ThrottleCommand, ThrottleEvent> = {
  name: 'throttle',
  idField: 'key',
  label: 'Throttle',
  evolve(state, event) {
    switch (event.type) {
      case 'AttemptFailed': {
        const { key, at, windowMs } = event.data;
        return { key, failures: [...recent(state?.failures ?? [], at, windowMs), at] };
      }
      case 'FailuresCleared': return null;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RecordFailure': {
        const { key, at, limit } = command.data;
        // Past the limit the attempt was refused before it ran: nothing more to record.
        return retryAfterSeconds(state, at, limit) > 0 ? [] : [{ type: 'AttemptFailed', data: { key, at, windowMs: limit.windowMs } }];
      }
      case 'ClearFailures': return state ? [{ type: 'FailuresCleared', data: command.data }] : [];
      default: return exhaustive(command);
    }
  },
};
