// Bounds a backup's run records as the deployer bounds a service's deployments: when a run ends
// (a scheduled one, one asked for, one ended as interrupted), the finished runs of its backup
// beyond the newest `keep` are pruned; when a backup is removed, all of them, and a run that was
// under way then goes too once it ends (its backup is gone).
// Pruning is a command per run: another process pruning the same run meanwhile costs a retry,
// and one already gone decides nothing.
import { backupAggregate } from '@berth/shared/domain/backup/backup';
import { runsToPrune } from '@berth/shared/domain/backup/run-bound';
import { backupRunAggregate, type BackupRun } from '@berth/shared/domain/backup/run';
import type { RecordedEvent } from '@berth/shared/events/event';
import { load } from '@berth/shared/runtime/execute';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { Reactor } from '../runtime/reactor.ts';
import type { Report } from '../runtime/report.ts';

const ENDS: ReadonlySet<string> = new Set(['BackupRunSucceeded', 'BackupRunFailed']);

/**
 * Prunes each backup's runs beyond the bound, every one of a backup that is gone: those no end will
 * come for any more (a backup removed before its runs went with it, a removal cut short, a disabled
 * backup over a bound since lowered). One pass over the read model; stops early when `stopped`.
 */
async function sweep(infra: Infrastructure, report: Report, stopped: () => boolean): Promise<void> {
  const byBackup = new Map<string, BackupRun[]>();
  for (const run of await infra.readStore.all(backupRunAggregate.name) as unknown as BackupRun[]) {
    const runs = byBackup.get(run.backupId) ?? [];
    runs.push(run);
    byBackup.set(run.backupId, runs);
  }
  for (const [backupId, runs] of byBackup) {
    const backup = (await load(infra.eventStore, backupAggregate, backupId)).state;
    for (const old of runsToPrune(runs, backup ? infra.config.keepBackupRuns : 0)) {
      if (stopped()) return;
      await report(backupRunAggregate, old.runId, { type: 'PruneBackupRun', data: { runId: old.runId } }, null);
    }
  }
}

/** Prunes the finished runs of `backupId` beyond the bound (all of them when it is gone), as the read model holds them at `position`. */
async function pruneRunsOf(infra: Infrastructure, report: Report, backupId: string, cause: RecordedEvent): Promise<void> {
  // Counted in the read model once it holds the event (the deployer counts so too); past the wait, the bus hands it out again.
  await infra.readStore.waitFor(cause.position, infra.config.projectionWaitMs);
  const backup = (await load(infra.eventStore, backupAggregate, backupId)).state;
  const runs = await infra.readStore.find(backupRunAggregate.name, 'backupId', backupId) as unknown as BackupRun[];
  for (const old of runsToPrune(runs, backup ? infra.config.keepBackupRuns : 0)) {
    await report(backupRunAggregate, old.runId, { type: 'PruneBackupRun', data: { runId: old.runId } }, cause);
  }
}

/** On a run's end, its backup's oldest finished runs; at start, what no end will come for (see sweep). */
function endedRuns(infra: Infrastructure, report: Report): Reactor {
  let stopping = false;
  let sweeping: Promise<void> = Promise.resolve();
  return {
    name: 'backup-run-records',
    aggregate: backupRunAggregate.name,
    // In the background: the first start after an upgrade may have a great many to prune, and
    // nothing waits for them. The read models have caught up by now (see the role's start).
    async start() {
      stopping = false;
      sweeping = sweep(infra, report, () => stopping)
        .catch((error: unknown) => console.error('pruning the backup run records left over failed; the next start tries again:', error));
    },
    async stop() {
      stopping = true;
      await sweeping;
    },
    async handle(event) {
      if (!ENDS.has(event.type)) return;
      // The run as the log has it now: pruned already (a re-delivery), nothing to count from.
      const run = (await load(infra.eventStore, backupRunAggregate, (event.data as { runId: string }).runId)).state as BackupRun | null;
      if (run) await pruneRunsOf(infra, report, run.backupId, event);
    },
  };
}

/**
 * On a backup's removal (directly, or with its database or project), all its finished runs, as the
 * deployer's reactors prune a removed service's deployments: here, not in the removal's request,
 * whose answer must not wait on a long history. One under way goes when it ends.
 */
function removedBackups(infra: Infrastructure, report: Report): Reactor {
  return {
    name: 'backup-run-removal',
    aggregate: backupAggregate.name,
    async handle(event) {
      if (event.type === 'BackupRemoved') await pruneRunsOf(infra, report, (event.data as { backupId: string }).backupId, event);
    },
  };
}

export const runRecordReactors = (infra: Infrastructure, report: Report): Reactor[] => [endedRuns(infra, report), removedBackups(infra, report)];
