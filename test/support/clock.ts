import type { Clock } from '@berth/shared/ports/clock';

/** A clock the test moves by hand, for expiries and windows. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start = Date.parse('2026-06-01T12:00:00.000Z')) {
    this.current = start;
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
