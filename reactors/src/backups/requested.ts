// The reactor over manual backups and restores asked through the API: each runs here, as the
// scheduled ones do, and records its run; the API answers from the run's outcome.
import { refusedRun, runBackup, runRestore } from '@berth/shared/backups/run';
import { objectKey } from '@berth/shared/backups/plan';
import { latestKey } from '@berth/shared/backups/restore-key';
import { backupRunAggregate } from '@berth/shared/domain/backup/run';
import { backupAggregate, type Backup, type RunRequest } from '@berth/shared/domain/backup/backup';
import { DomainError } from '@berth/shared/errors';
import { load } from '@berth/shared/runtime/execute';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { Reactor } from '../runtime/reactor.ts';
import type { Report } from '../runtime/report.ts';
import { readModelsCaughtUp } from '../runtime/caught-up.ts';
import { claimFor, planFromLog, runDepsOf, type RunTerm } from './runs.ts';

/**
 * The newest successful run's object, as the read models hold the runs once they caught up with the
 * log (a run that just ended before this one, in this process, is in it).
 */
async function newestKey(infra: Infrastructure, backupId: string): Promise<string | null> {
  await readModelsCaughtUp(infra, infra.config.projectionWaitMs);
  return latestKey(await infra.readStore.find(backupRunAggregate.name, 'backupId', backupId));
}

export function requestedRuns(infra: Infrastructure, report: Report, term: RunTerm): Reactor {
  return {
    name: 'backup-runs',
    aggregate: backupAggregate.name,
    async handle(event) {
      if (event.type !== 'BackupRunRequested') return;
      const request = event.data as RunRequest;
      const backup = (await load(infra.eventStore, backupAggregate, request.backupId)).state as Backup | null;
      // Removed since it was asked: nothing to run (the API's wait ends without an outcome).
      const plan = backup && await planFromLog(infra, backup, request.databaseId);
      if (!plan) return;
      const deps = runDepsOf(infra, report, request.runId, event, term);
      try {
        // The API refuses a request while a run goes; one that came in just then is refused here.
        const busyWith = await claimFor(infra, report, term, request.backupId, request.runId);
        if (busyWith) {
          const key = request.kind === 'backup' ? objectKey(plan, new Date(request.at)) : request.key ?? '';
          await refusedRun(plan, deps, request.runId, request.kind, key, busyWith);
          return;
        }
        await term.track(request.kind === 'backup'
          ? runBackup(plan, deps, request.runId, 'manual', new Date(request.at))
          : runRestore(plan, deps, request.runId, request.key ?? await newestKey(infra, request.backupId), request.database));
      } catch (error) {
        // Delivered again after the run was recorded: it is not run twice.
        if (error instanceof DomainError && error.code === 'CONFLICT') return;
        throw error;
      }
    },
  };
}
