// Running a backup now, listing its runs and restoring one: the API side of shared/backups.
// Each answers once the run has ended, with the run's record (its outcome, or its reason).
import type { Engine } from '@berth/shared/contract/databases';
import { planOf, type RunPlan } from '@berth/shared/backups/plan';
import { runBackup, runRestore, type RunDeps } from '@berth/shared/backups/run';
import { backupAggregate, ownerField, ownerOf, type Backup, type BackupDatabaseType } from '@berth/shared/domain/backup/backup';
import { backupRunAggregate } from '@berth/shared/domain/backup/run';
import { databaseAggregates, idFieldOf, type Database } from '@berth/shared/domain/database/database';
import { destinationAggregate } from '@berth/shared/domain/destination/destination';
import { ENGINES } from '@berth/shared/contract/databases';
import { badRequest } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import type { Doc } from '@berth/shared/ports/read-store';
import type { Context } from '../context.ts';
import type { Handler } from './kit.ts';

const runDeps = (ctx: Context): RunDeps => ({
  exec: ctx.infra.taskExec,
  objectStorage: ctx.infra.objectStorage,
  now: () => ctx.infra.clock.now(),
  record: async (command) => (await ctx.execute(backupRunAggregate, command.data.runId, command)).after!,
});

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
  const run = await runBackup(await planFor(ctx, backup), runDeps(ctx), newId(), 'manual', ctx.infra.clock.now());
  return ctx.view(backupRunAggregate, run);
};

const byStart = (a: Doc, b: Doc) => String(b.startedAt).localeCompare(String(a.startedAt));

/** `backup.runs`: every run of the backup, newest first. */
export const runs: Handler<{ backupId: string }> = async (input, ctx) => {
  await ctx.mustLoad(backupAggregate, input.backupId, 'backupId');
  return (await ctx.list(backupRunAggregate, 'backupId', input.backupId)).sort(byStart);
};

type RestoreInput = { backupId: string; key?: string } & Partial<Record<`${Engine}Id`, string>>;

/** The object to restore: the given key (which must be this backup's), else the latest successful run's. */
async function keyToRestore(ctx: Context, plan: RunPlan, backupId: string, key: string | undefined): Promise<string> {
  const folder = `${plan.backup.prefix.replace(/\/+$/, '')}/`;
  if (key !== undefined) {
    if (!key.startsWith(folder)) throw badRequest('key', `is not an object of this backup (its objects are under ${folder})`);
    return key;
  }
  const latest = (await ctx.list(backupRunAggregate, 'backupId', backupId)).sort(byStart)
    .find((run) => run.kind === 'backup' && run.status === 'done');
  if (!latest) throw badRequest('key', 'this backup has no successful run to restore; give the key of an object');
  return String(latest.key);
}

/** `backup.restore`: loads a dump of the backup into its database, or another of the same kind. */
export const restore: Handler<RestoreInput> = async (input, ctx) => {
  const backup = await ctx.mustLoad(backupAggregate, input.backupId, 'backupId');
  const own = idFieldOf(backup.databaseType);
  for (const engine of ENGINES) {
    const field = idFieldOf(engine);
    if (field !== own && input[field] !== undefined) throw badRequest(field, `a ${backup.databaseType} backup restores only into a ${backup.databaseType} database (give ${own})`);
  }
  const plan = await planFor(ctx, backup, input[own] ?? ownerOf(backup), own);
  const key = await keyToRestore(ctx, plan, backup.backupId, input.key);
  const database = plan.database.databaseName || backup.database;
  return ctx.view(backupRunAggregate, await runRestore(plan, runDeps(ctx), newId(), key, database));
};
