// What a backup's cron tick does in a reactors process: claim the tick by starting its run (the
// run id is the backup and the tick, so of several processes only the first appends it), then
// dump, upload and prune as a manual run does. A tick claimed elsewhere is not this process's.
import { planOf } from '@berth/shared/backups/plan';
import { runBackup } from '@berth/shared/backups/run';
import { ownerField, ownerOf } from '@berth/shared/domain/backup/backup';
import { backupRunAggregate, scheduledRunId, type BackupRun } from '@berth/shared/domain/backup/run';
import { databaseAggregates, type Database } from '@berth/shared/domain/database/database';
import { destinationAggregate, type Destination } from '@berth/shared/domain/destination/destination';
import { DomainError } from '@berth/shared/errors';
import { load } from '@berth/shared/runtime/execute';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { reporter } from '../runtime/report.ts';
import type { FireTick } from './scheduler.ts';

export function scheduledBackups(infra: Infrastructure): FireTick {
  const report = reporter(infra);
  return async (backup, tick) => {
    const databaseId = ownerOf(backup);
    const destination = (await load(infra.eventStore, destinationAggregate, backup.destinationId)).state as Destination | null;
    const database = (await load(infra.eventStore, databaseAggregates[backup.databaseType], databaseId)).state as Database | null;
    // Removed meanwhile: the backup goes with its database, and cannot upload without a destination.
    if (!destination || !database) return;
    const runId = scheduledRunId(backup.backupId, tick);
    try {
      await runBackup(planOf(infra.secrets, backup, destination, database, databaseId, infra.config.databaseProfiles), {
        exec: infra.taskExec,
        objectStorage: infra.objectStorage,
        now: () => infra.clock.now(),
        record: async (command) => (await report<BackupRun>(backupRunAggregate, runId, command, null)).after!,
      }, runId, 'schedule', tick);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'CONFLICT') return;
      throw new Error(`backup ${backup.backupId} (${ownerField(backup.databaseType)} ${databaseId}) tick ${tick.toISOString()} failed`, { cause: error });
    }
  };
}
