// A tick due while Berth was down is run once when the scheduler starts: the latest one due, not one
// per tick missed, and only when the backup was already scheduled then (not one just created,
// enabled or given a new schedule) and no run of it started since.
import { latestTickBefore } from './schedule.ts';

export interface ScheduleHistory {
  readonly schedule: string;
  /** When the backup was created, enabled, or given this schedule, whichever came last. */
  readonly scheduledSince: Date;
  /** The start of its latest run of any kind; null when it never ran. */
  readonly lastRunStartedAt: Date | null;
}

/** The tick to run now, or null when the latest due one ran, or was not yet the backup's to run. */
export function missedTick(history: ScheduleHistory, now: Date): Date | null {
  const tick = latestTickBefore(history.schedule, now);
  if (!tick || tick <= history.scheduledSince) return null;
  if (history.lastRunStartedAt && history.lastRunStartedAt >= tick) return null;
  return tick;
}
