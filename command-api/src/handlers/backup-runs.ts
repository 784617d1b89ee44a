// Running a backup now, listing its runs and restoring one: the API side of shared/backups. A run
// is checked here (4xx for what cannot run), asked of the reactors, and answered once it ended
// with the run's record (its outcome, or its reason); past the bounded wait, 409 naming the run.
import type { Engine } from '@berth/shared/contract/databases';
import { folderOf, planOf, type RunPlan } from '@berth/shared/backups/plan';
import { isRestorable, latestKey } from '@berth/shared/backups/restore-key';
import { runUnderWay } from '@berth/shared/backups/run-claim';
import { backupAggregate, ownerField, ownerOf, type Backup, type BackupDatabaseType, type RunRequest } from '@berth/shared/domain/backup/backup';
import { backupRunAggregate } from '@berth/shared/domain/backup/run';
import { databaseAggregates, idFieldOf, type Database } from '@berth/shared/domain/database/database';
import { destinationAggregate } from '@berth/shared/domain/destination/destination';
import { ENGINES } from '@berth/shared/contract/databases';
import { badRequest, conflict, notFound } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import type { Doc } from '@berth/shared/ports/read-store';
import type { Context } from '../context.ts';
import type { Handler } from './kit.ts';
import { waitForEvent } from './deployment-queue.ts';

type Asked = { kind: 'backup'; databaseId: string } | { kind: 'restore'; databaseId: string; key: string | null; database: string };

/** Asks the reactors for the run and answers it once it ended (bounded wait). */
async function run(ctx: Context, backup: Backup, asked: Asked) {
  // One run at a time per backup: the reactors would refuse it (refusedRun), so it is not asked.
  const underWay = await runUnderWay(ctx.infra.eventStore, backup.backupId);
  if (underWay) throw conflict(`has a run under way (${underWay}); ask again once it ended (backup.runs shows it)`, 'backupId');
  const runId = newId();
  const request = { backupId: backup.backupId, runId, at: ctx.now, ...asked } as RunRequest;
  await ctx.execute(backupAggregate, backup.backupId, { type: 'RequestBackupRun', data: request });
  const ended = await waitForEvent(ctx, backupRunAggregate.name, runId, ctx.position,
    (event) => event.type === 'BackupRunSucceeded' || event.type === 'BackupRunFailed');
  if (!ended) throw conflict(`The ${asked.kind} run ${runId} is still in progress after ${ctx.infra.config.actionWaitMs} ms; backup.runs shows it when it ends`);
  // Appended by the reactors: newer than what this process may hold.
  ctx.forget(backupRunAggregate, runId);
  const { state } = await ctx.load(backupRunAggregate, runId);
  // Pruned as it ended: only a removal of its backup meanwhile prunes the run that ended last.
  if (state === null) throw notFound('backupId', backupAggregate.label);
  return ctx.view(backupRunAggregate, state);
}

/** The plan of a run of `backup` on the database `databaseId` of its engine (its own by default). */
async function planFor(ctx: Context, backup: Backup, databaseId = ownerOf(backup), field = ownerField(backup.databaseType)): Promise<RunPlan> {
  const destination = await ctx.mustLoad(destinationAggregate, backup.destinationId, 'destinationId');
  const database = await ctx.mustLoad(databaseAggregates[backup.databaseType], databaseId, field) as Database;
  return planOf(ctx.secrets, backup, destination, database, databaseId, ctx.infra.config.databaseProfiles);
}

/** `manualBackup<Engine>`: the backup must be of that engine; answers the run. */
export const manualBackup = (type: BackupDatabaseType): Handler<{ backupId: string }> => async (input, ctx) => {
  const backup = await ctx.mustLoad(backupAggregate, input.backupId, 'backupId');
  if (backup.databaseType !== type) throw badRequest('backupId', `is a ${backup.databaseType} backup, not a ${type} one`);
  // Refused here, not recorded as a failed run: a destination or database that does not exist.
  await planFor(ctx, backup);
  return run(ctx, backup, { kind: 'backup', databaseId: ownerOf(backup) });
};

const byStart = (a: Doc, b: Doc) => String(b.startedAt).localeCompare(String(a.startedAt));

/** `backup.runs`: every run of the backup, newest first. */
export const runs: Handler<{ backupId: string }> = async (input, ctx) => {
  await ctx.mustLoad(backupAggregate, input.backupId, 'backupId');
  return (await ctx.list(backupRunAggregate, 'backupId', input.backupId)).sort(byStart);
};

type RestoreInput = { backupId: string; key?: string } & Partial<Record<`${Engine}Id`, string>>;

/** The object to restore: the given key (which must be this backup's), else null: the latest successful run's when it runs. */
async function keyToRestore(ctx: Context, plan: RunPlan, backupId: string, key: string | undefined): Promise<string | null> {
  const runs = await ctx.list(backupRunAggregate, 'backupId', backupId);
  if (key !== undefined) {
    if (!isRestorable(plan, runs, key)) {
      throw badRequest('key', `is not an object of this backup (its objects are ${folderOf(plan)}<ISO timestamp>.${plan.profile.extension}.gz, or those its runs list)`);
    }
    return key;
  }
  if (latestKey(runs) === null) throw badRequest('key', 'is required: this backup has no successful run to restore from; give the key of an object');
  return null;
}

/** `backup.restore`: loads a dump of the backup into its database, or another of the same kind. */
export const restore: Handler<RestoreInput> = async (input, ctx) => {
  const backup = await ctx.mustLoad(backupAggregate, input.backupId, 'backupId');
  const own = idFieldOf(backup.databaseType);
  for (const engine of ENGINES) {
    const field = idFieldOf(engine);
    if (field !== own && input[field] !== undefined) throw badRequest(field, `cannot be given: a ${backup.databaseType} backup restores only into a ${backup.databaseType} database (give ${own})`);
  }
  const databaseId = input[own] ?? ownerOf(backup);
  const plan = await planFor(ctx, backup, databaseId, own);
  const key = await keyToRestore(ctx, plan, backup.backupId, input.key);
  return run(ctx, backup, { kind: 'restore', databaseId, key, database: await restoredInto(ctx, backup, plan) });
};

/**
 * The database a restore loads into: the one that was dumped (of that name in the target service,
 * not the service's main one); but a dump of the backup's service's main database goes into the
 * target service's main one, which has a name of its own.
 */
async function restoredInto(ctx: Context, backup: Backup, target: RunPlan): Promise<string> {
  if (target.databaseId === ownerOf(backup)) return backup.database;
  const source = await ctx.mustLoad(databaseAggregates[backup.databaseType], ownerOf(backup), ownerField(backup.databaseType)) as Database;
  const main = target.database.databaseName;
  return backup.database === source.databaseName && main ? main : backup.database;
}
