// A backup's `schedule` is a cron expression the backup reactor runs it on (croner): one it could
// not run is refused when it is written, not discovered at the first missed backup.
import { Cron } from 'croner';
import { badRequest } from '../../errors.ts';

export function mustBeSchedule(schedule: string, field = 'schedule'): void {
  try {
    // Paused: parsing only, nothing is ever scheduled in the decider.
    new Cron(schedule, { paused: true }).stop();
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, '') : String(error);
    throw badRequest(field, `not a cron expression (${reason})`);
  }
}
