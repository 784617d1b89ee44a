// A backup's `schedule` is a cron expression the backup reactor runs it on (croner): one it could
// not run, or that would never run again, is refused when it is written, not discovered at the
// first missed backup.
import { Cron, type CronOptions } from 'croner';
import { badRequest } from '../../errors.ts';

/**
 * How every schedule is read, where it is checked and where it runs: five fields, or six with
 * seconds first, as README says (croner's default also takes a seventh, a year, which can stop
 * firing for good); in UTC, as object keys and run records are, whatever the host's time zone.
 */
export const SCHEDULE_OPTIONS = { mode: '5-or-6-parts', timezone: 'UTC' } as const satisfies CronOptions;

/** The next two runs after `now`, or BAD_REQUEST when croner cannot read the expression. */
function nextTwoRuns(schedule: string, now: Date, field: string): Date[] {
  try {
    // Paused: parsing only, nothing is ever scheduled in the decider.
    const cron = new Cron(schedule, { ...SCHEDULE_OPTIONS, paused: true });
    const runs = cron.nextRuns(2, now);
    cron.stop();
    return runs;
  } catch {
    // croner's reason speaks of its own configuration: say what a schedule is instead.
    throw badRequest(field, 'must be a cron expression of five fields (minute, hour, day of the month, month, day of the week), such as "0 3 * * *" for 03:00 every day, or of six with seconds first');
  }
}

/**
 * A schedule must keep firing after `now`: croner also reads a date (it fires once) and takes a day
 * no month has (`0 0 30 2 *`) or a year gone by, which never fire; the scheduler would hold them silently.
 */
export function mustBeSchedule(schedule: string, now: Date, field = 'schedule'): void {
  const runs = nextTwoRuns(schedule, now, field);
  if (runs.length === 0) throw badRequest(field, 'never fires (a day no month has, or a time already past)');
  if (runs.length === 1) throw badRequest(field, 'fires only once: a backup schedule must recur (a cron expression, not a date)');
}

/** The schedule's last tick at or before `now`, read as the scheduler reads it; null when it has none. */
export function latestTickBefore(schedule: string, now: Date): Date | null {
  const cron = new Cron(schedule, { ...SCHEDULE_OPTIONS, paused: true });
  const [tick] = cron.previousRuns(1, new Date(now.getTime() + 1));
  cron.stop();
  return tick ?? null;
}
