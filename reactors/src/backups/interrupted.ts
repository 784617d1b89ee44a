// Runs left `running` by a reactors process that stopped or died during them: none can still be
// running once this process holds the reactors' work, so each ends in `error`, as an interrupted
// deployment does, instead of showing `running` for ever.
import { backupRunAggregate, type BackupRun } from '@berth/shared/domain/backup/run';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { INTERRUPTED } from '@berth/shared/domain/deployment/record';
import { DomainError } from '@berth/shared/errors';
import type { Report } from '../runtime/report.ts';

/** Call once the read models have caught up with the log (as the deployer's recovery waits for). */
export async function failInterruptedRuns(infra: Infrastructure, report: Report): Promise<void> {
  for (const run of await infra.readStore.find(backupRunAggregate.name, 'status', 'running') as unknown as BackupRun[]) {
    await report(backupRunAggregate, run.runId, {
      type: 'FailBackupRun',
      data: {
        runId: run.runId, finishedAt: infra.clock.now().toISOString(), size: null, error: INTERRUPTED,
        log: [...run.log, `${INTERRUPTED}: Berth stopped while it ran`],
      },
    }, null).catch((error: unknown) => {
      // Ended meanwhile (its outcome came in after the read models were read): nothing to do.
      if (!(error instanceof DomainError && error.code === 'CONFLICT')) throw error;
    });
  }
}
