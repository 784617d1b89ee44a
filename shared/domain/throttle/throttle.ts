// Attempts at a guarded operation, per key (an account, an email, a client address). An attempt
// takes a slot before its credential is checked, so parallel attempts count while in flight; a
// success gives its slot back (on an account's key, with the failures before it: the owner proved
// who they are), a failure keeps it until it leaves the window. Decided against the
// log (append at the revision read), so every API process counts the same attempts.
// (The `throttle` streams of older logs recorded failures only, after the check; nothing reads them now.)
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { tooManyRequests } from '../../errors.ts';

export interface Limit {
  readonly attempts: number;
  readonly windowMs: number;
}

interface Slot {
  readonly attemptId: string;
  readonly at: string;
}

export interface AttemptSlots {
  key: string;
  /** Slots held by attempts in flight or failed, oldest first. */
  taken: Slot[];
}

export type AttemptSlotsCommand =
  | { type: 'TakeSlot'; data: { key: string; attemptId: string; at: string; limit: Limit } }
  | { type: 'GiveBackSlot'; data: { key: string; attemptId: string; withEarlier: boolean } };

export type AttemptSlotsEvent =
  | { type: 'AttemptStarted'; data: { key: string; attemptId: string; at: string; windowMs: number } }
  | { type: 'AttemptSucceeded'; data: { key: string; attemptId: string; withEarlier: boolean } };

/** Seconds until `key` has a free slot at `now`, or 0 when it has one. */
export function slotWaitSeconds(state: AttemptSlots | null, now: string, limit: Limit): number {
  const taken = (state?.taken ?? []).map((slot) => slot.at).filter((at) => Date.parse(now) - Date.parse(at) < limit.windowMs);
  if (taken.length < limit.attempts) return 0;
  const oldestCounted = taken[taken.length - limit.attempts]!;
  return Math.max(1, Math.ceil((Date.parse(oldestCounted) + limit.windowMs - Date.parse(now)) / 1000));
}

export const attemptSlotsAggregate: Aggregate<AttemptSlots, AttemptSlotsCommand, AttemptSlotsEvent> = {
  name: 'attempts',
  idField: 'key',
  label: 'Attempts',
  evolve(state, event) {
    switch (event.type) {
      case 'AttemptStarted': {
        const { key, attemptId, at, windowMs } = event.data;
        // Slots that left the window count no more: dropped, so the state stays small.
        const current = (state?.taken ?? []).filter((slot) => Date.parse(at) - Date.parse(slot.at) < windowMs);
        return { key, taken: [...current, { attemptId, at }] };
      }
      case 'AttemptSucceeded': {
        if (!state) return state;
        const { attemptId, withEarlier } = event.data;
        const own = state.taken.findIndex((slot) => slot.attemptId === attemptId);
        return { ...state, taken: state.taken.filter((slot, index) => (withEarlier ? index > own : index !== own)) };
      }
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'TakeSlot': {
        const { key, attemptId, at, limit } = command.data;
        const wait = slotWaitSeconds(state, at, limit);
        if (wait > 0) throw tooManyRequests(wait);
        return [{ type: 'AttemptStarted', data: { key, attemptId, at, windowMs: limit.windowMs } }];
      }
      case 'GiveBackSlot':
        return state?.taken.some((slot) => slot.attemptId === command.data.attemptId)
          ? [{ type: 'AttemptSucceeded', data: command.data }] : [];
      default: return exhaustive(command);
    }
  },
};
