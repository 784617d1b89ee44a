// What every run in a reactors process needs, scheduled or asked for: its plan from the log as it
// is now, and its dependencies, its steps reported as caused by the event that started it.
import { planOf, type RunPlan } from '@berth/shared/backups/plan';
import type { RunDeps } from '@berth/shared/backups/run';
import { claimRun } from '@berth/shared/backups/run-claim';
import type { Backup } from '@berth/shared/domain/backup/backup';
import { backupRunAggregate, type BackupRun } from '@berth/shared/domain/backup/run';
import { databaseAggregates, type Database } from '@berth/shared/domain/database/database';
import { destinationAggregate, type Destination } from '@berth/shared/domain/destination/destination';
import type { RecordedEvent } from '@berth/shared/events/event';
import { load } from '@berth/shared/runtime/execute';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { Report } from '../runtime/report.ts';

/** The plan of a run of `backup` on `databaseId`; null when its destination or that database is gone. */
export async function planFromLog(infra: Infrastructure, backup: Backup, databaseId: string): Promise<RunPlan | null> {
  const destination = (await load(infra.eventStore, destinationAggregate, backup.destinationId)).state as Destination | null;
  const database = (await load(infra.eventStore, databaseAggregates[backup.databaseType], databaseId)).state as Database | null;
  if (!destination || !database) return null;
  return planOf(infra.secrets, backup, destination, database, databaseId, infra.config.databaseProfiles);
}

export const runDepsOf = (infra: Infrastructure, report: Report, runId: string, cause: RecordedEvent | null, term: RunTerm): RunDeps => ({
  exec: infra.taskExec,
  objectStorage: infra.objectStorage,
  now: () => infra.clock.now(),
  record: async (command) => (await report<BackupRun>(backupRunAggregate, runId, command, cause)).after!,
  signal: term.signal,
});

/**
 * Claims `backupId` for the run `runId` (one run at a time per backup): null once it holds it, else
 * the id of the run under way.
 */
export const claimFor = (infra: Infrastructure, report: Report, term: RunTerm, backupId: string, runId: string): Promise<string | null> =>
  claimRun(infra.eventStore, (aggregate, key, command) => report(aggregate, key, command, null), backupId, runId, term.began);

/**
 * The runs of one term of this process's reactors' work (it ends when the process stops or its
 * lease goes to another): ended together, each recording itself as interrupted before the term
 * is over, so none runs on beside the process that took over.
 */
export class RunTerm {
  private readonly controller = new AbortController();
  private readonly running = new Set<Promise<unknown>>();

  /** `began`: a run claimed before it and never started was its process's, gone since (see run-claim.ts). */
  constructor(readonly began = new Date()) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  track<T>(run: Promise<T>): Promise<T> {
    this.running.add(run);
    void run.catch(() => {}).finally(() => this.running.delete(run));
    return run;
  }

  async end(reason: string): Promise<void> {
    this.controller.abort(new Error(reason));
    await Promise.allSettled([...this.running]);
  }
}
