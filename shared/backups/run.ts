// A recorded run: the start is appended first (for a scheduled run it is the claim on the tick),
// then the transfer, then its outcome. A failure of any step is recorded with its reason, never
// thrown away, and never with a secret in it.
import type { BackupRun, BackupRunCommand, RunKind, RunTrigger } from '../domain/backup/run.ts';
import type { ObjectStorage, OpenObjectStorage } from '../ports/object-storage.ts';
import { NoRunningTaskError, type TaskExec } from '../ports/task-exec.ts';
import { INTERRUPTED } from '../domain/deployment/record.ts';
import { objectKey, scrubbed, type RunPlan } from './plan.ts';
import { bucketToRestore, dumpToBucket, prune, type Transfer } from './transfer.ts';
import { messageOf } from '../errors.ts';

export interface RunDeps {
  readonly exec: TaskExec;
  readonly objectStorage: OpenObjectStorage;
  /** Appends the command to the run's stream; answers the run after it. */
  readonly record: (command: BackupRunCommand) => Promise<BackupRun>;
  readonly now: () => Date;
  /** Aborted when this process stops doing the reactors' work: the run ends as interrupted. */
  readonly signal?: AbortSignal;
}

interface RunStart {
  readonly runId: string;
  readonly kind: RunKind;
  readonly trigger: RunTrigger;
  readonly key: string;
}

const reasonOf = (plan: RunPlan, error: unknown, kind: RunKind = 'backup'): string => {
  if (error instanceof NoRunningTaskError) return `The database ${plan.database.appName} is not running (no running task to ${kind === 'restore' ? 'restore into' : 'dump in'})`;
  return scrubbed(plan, messageOf(error));
};

async function recorded(plan: RunPlan, deps: RunDeps, start: RunStart, work: () => Promise<Transfer>): Promise<BackupRun> {
  await deps.record({
    type: 'StartBackupRun',
    data: {
      ...start, backupId: plan.backup.backupId, databaseType: plan.engine, databaseId: plan.databaseId, startedAt: deps.now().toISOString(),
    },
  });
  try {
    const { size, log } = await work();
    return await deps.record({ type: 'SucceedBackupRun', data: { runId: start.runId, finishedAt: deps.now().toISOString(), size, log } });
  } catch (error) {
    const interrupted = deps.signal?.aborted === true;
    const reason = interrupted ? INTERRUPTED : reasonOf(plan, error, start.kind);
    const log = [interrupted ? `${INTERRUPTED}: ${(deps.signal!.reason as Error).message}` : reason];
    return deps.record({ type: 'FailBackupRun', data: { runId: start.runId, finishedAt: deps.now().toISOString(), size: null, log, error: reason } });
  }
}

/** The run log's line on pruning to `keep`: its failure is said there, never the run's (the dump is uploaded). */
const pruned = (plan: RunPlan, storage: ObjectStorage, keep: number): Promise<string> =>
  prune(plan, storage, keep).then(
    (removed) => `kept the latest ${keep}; removed ${removed.length}`,
    (error: unknown) => `the upload stands, but keeping only the latest ${keep} failed: ${reasonOf(plan, error)}`,
  );

/** Dumps the backup's database, uploads it, then prunes to `keepLatest` when the upload succeeded. */
export function runBackup(plan: RunPlan, deps: RunDeps, runId: string, trigger: RunTrigger, at: Date): Promise<BackupRun> {
  const key = objectKey(plan, at);
  return recorded(plan, deps, { runId, kind: 'backup', trigger, key }, async () => {
    const storage = await deps.objectStorage(plan.bucket);
    const transfer = await dumpToBucket(plan, deps.exec, storage, key, deps.signal);
    const keep = plan.backup.keepLatest;
    if (!keep) return transfer;
    deps.signal?.throwIfAborted();
    return { ...transfer, log: [...transfer.log, await pruned(plan, storage, keep)] };
  });
}

/** Loads the object `key` into `database` of the plan's (target) database service; null: the backup has none left to load. */
export function runRestore(plan: RunPlan, deps: RunDeps, runId: string, key: string | null, database: string): Promise<BackupRun> {
  return recorded(plan, deps, { runId, kind: 'restore', trigger: 'manual', key: key ?? '' }, async () => {
    if (key === null) throw new Error('this backup has no successful run left to restore from');
    return bucketToRestore(plan, deps.exec, await deps.objectStorage(plan.bucket), key, database, deps.signal);
  });
}

/**
 * A run asked while another of its backup was under way (one run at a time per backup): recorded as
 * failed with that reason, so whoever waits for it is answered; nothing is dumped or loaded.
 */
export function refusedRun(plan: RunPlan, deps: RunDeps, runId: string, kind: RunKind, key: string, busyWith: string): Promise<BackupRun> {
  return recorded(plan, deps, { runId, kind, trigger: 'manual', key }, () =>
    Promise.reject(new Error(`not run: the run ${busyWith} of this backup was under way`)));
}
