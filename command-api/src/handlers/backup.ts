import type { contract } from '@berth/shared/contract/index';
import { BACKUP_DATABASE_TYPES } from '@berth/shared/contract/storage';
import { backupAggregate, ownerField, ownerOf, type Backup, type BackupDatabaseType, type OwnerField } from '@berth/shared/domain/backup/backup';
import { backupFolder, mustBePrefix } from '@berth/shared/domain/backup/prefix';
import { mustBeSchedule } from '@berth/shared/domain/backup/schedule';
import { destinationAggregate } from '@berth/shared/domain/destination/destination';
import { databaseAggregates } from '@berth/shared/domain/database/database';
import { badRequest } from '@berth/shared/errors';
import type { Context } from '../context.ts';
import { change, type GroupHandlers } from './kit.ts';
import { manualBackup, restore, runs } from './backup-runs.ts';
import { DESTINATION_USE } from './destination.ts';
import { claim, moveName, moveUse, release, stopUsing, use } from './reservations.ts';

/**
 * The folder a backup uploads to, claimed on its destination: a backup prunes the objects of its
 * folder, so a second backup there is refused (409 naming prefix) rather than losing its dumps.
 */
const folderName = (backup: Pick<Backup, 'destinationId' | 'prefix'>) => `${backup.destinationId}/${backupFolder(backup.prefix)}`;

/** Removes one backup, as `backup.remove` does, then takes it off its destination's users and frees its folder. */
async function removeBackup(input: { backupId: string }, ctx: Context) {
  const { before } = await ctx.execute(backupAggregate, input.backupId, { type: 'RemoveBackup', data: { backupId: input.backupId } });
  if (before) {
    await stopUsing(ctx, 'destination', before.destinationId, input.backupId);
    await release(ctx, 'backupFolder', folderName(before), input.backupId);
  }
  return ctx.view(backupAggregate, before);
}

/** Removes every backup of a database (its `<engine>Id` field is `databaseId`), with the database. */
export async function removeBackupsOf(ctx: Context, databaseIdField: string, databaseId: string): Promise<void> {
  for (const backup of await ctx.list(backupAggregate, databaseIdField, databaseId)) {
    await removeBackup({ backupId: String(backup.backupId) }, ctx);
  }
}

/** The destination a backup uploads to, as much of it as a backup's reader needs (no keys). */
async function destinationSummary(destinationId: string, ctx: Context) {
  const destination = await ctx.infra.readStore.get(destinationAggregate.name, destinationId);
  return destination && { destinationId, name: destination.name, bucket: destination.bucket };
}

export const backup: GroupHandlers<typeof contract.backup> = {
  create: change(backupAggregate, async (input, ctx) => {
    const databaseType = input.databaseType as BackupDatabaseType;
    const databaseId = ownerOf({ ...input, databaseType });
    await ctx.mustLoad(databaseAggregates[databaseType], databaseId, ownerField(databaseType));
    await ctx.mustLoad(destinationAggregate, input.destinationId, 'destinationId');
    const owners = Object.fromEntries(BACKUP_DATABASE_TYPES.map((type) =>
      [ownerField(type), type === databaseType ? databaseId : null])) as Record<OwnerField, string | null>;
    // Checked here too (the decider checks again): a refused input must append no claim.
    mustBeSchedule(input.schedule, new Date(ctx.now));
    mustBePrefix(input.prefix);
    const backupId = ctx.newId(backupAggregate);
    await claim(ctx, 'backupFolder', folderName(input), backupId, 'prefix');
    // Counted in the log among the destination's users, so the destination cannot go meanwhile.
    await use(ctx, 'destination', input.destinationId, backupId, DESTINATION_USE);
    const data: Backup = {
      backupId, schedule: input.schedule, enabled: input.enabled ?? true, prefix: input.prefix,
      destinationId: input.destinationId, database: input.database, databaseType, ...owners, createdAt: ctx.now,
      keepLatest: input.keepLatest ?? null,
    };
    return { type: 'CreateBackup', data };
  }),
  one: async (input, ctx) => {
    const record = await ctx.one(backupAggregate, input.backupId);
    return { ...record, destination: await destinationSummary(String(record.destinationId), ctx) };
  },
  update: async (input, ctx) => {
    const current = await ctx.mustLoad(backupAggregate, input.backupId, 'backupId');
    await ctx.mustLoad(destinationAggregate, input.destinationId, 'destinationId');
    mustBeSchedule(input.schedule, new Date(ctx.now));
    mustBePrefix(input.prefix);
    // A null `enabled` is "not said", as on create: it leaves the backup as it was.
    const { enabled, ...rest } = input;
    const apply = () => change(backupAggregate, () => ({ type: 'UpdateBackup', data: { ...rest, ...(enabled != null && { enabled }), at: ctx.now } }))(input, ctx);
    return moveUse(ctx, 'destination', current.destinationId, input.destinationId, input.backupId, DESTINATION_USE,
      () => moveName(ctx, 'backupFolder', folderName(current), folderName(input), input.backupId, apply, 'prefix'));
  },
  remove: removeBackup,
  manualBackupDbgamma: manualBackup('dbgamma'),
  manualBackupDbbeta: manualBackup('dbbeta'),
  manualBackupDbalpha: manualBackup('dbalpha'),
  manualBackupDbdelta: manualBackup('dbdelta'),
  manualBackupDbepsilon: manualBackup('dbepsilon'),
  runs,
  restore,
};
