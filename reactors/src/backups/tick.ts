// What a backup's cron tick does in a reactors process: claim the backup (a tick that comes while
// another of its runs goes is skipped), claim the tick by starting its run (the run id is the backup
// and the tick, so of several processes only the first appends it), then dump, upload and prune as
// a manual run does. A tick claimed elsewhere is not this process's.
import { runBackup } from '@berth/shared/backups/run';
import { ownerField, ownerOf } from '@berth/shared/domain/backup/backup';
import { scheduledRunId } from '@berth/shared/domain/backup/run';
import { DomainError } from '@berth/shared/errors';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { Report } from '../runtime/report.ts';
import { claimFor, planFromLog, runDepsOf, type RunTerm } from './runs.ts';
import type { FireTick } from './scheduler.ts';

export function scheduledBackups(infra: Infrastructure, report: Report, term: RunTerm): FireTick {
  return async (backup, tick) => {
    const databaseId = ownerOf(backup);
    // Removed meanwhile: the backup goes with its database, and cannot upload without a destination.
    const plan = await planFromLog(infra, backup, databaseId);
    if (!plan) return;
    const runId = scheduledRunId(backup.backupId, tick);
    const busyWith = await claimFor(infra, report, term, backup.backupId, runId);
    if (busyWith) {
      console.log(`backup ${backup.backupId}: the tick of ${tick.toISOString()} is skipped, its run ${busyWith} is still under way`);
      return;
    }
    try {
      await term.track(runBackup(plan, runDepsOf(infra, report, runId, null, term), runId, 'schedule', tick));
    } catch (error) {
      if (error instanceof DomainError && error.code === 'CONFLICT') return;
      throw new Error(`backup ${backup.backupId} (${ownerField(backup.databaseType)} ${databaseId}) tick ${tick.toISOString()} failed`, { cause: error });
    }
  };
}
