import type { contract } from '@berth/shared/contract/index';
import { BACKUP_DATABASE_TYPES } from '@berth/shared/contract/storage';
import { backupAggregate, ownerField, ownerOf, type Backup, type BackupDatabaseType, type OwnerField } from '@berth/shared/domain/backup/backup';
import { mustBeSchedule } from '@berth/shared/domain/backup/schedule';
import { destinationAggregate } from '@berth/shared/domain/destination/destination';
import { databaseAggregates } from '@berth/shared/domain/database/database';
import { badRequest } from '@berth/shared/errors';
import type { Context } from '../context.ts';
import { change, type GroupHandlers } from './kit.ts';
import { manualBackup, restore, runs } from './backup-runs.ts';
import { DESTINATION_USE } from './destination.ts';
import { moveUse, stopUsing, use } from './reservations.ts';

/** Removes one backup, as `backup.remove` does, then takes it off its destination's users. */
async function removeBackup(input: { backupId: string }, ctx: Context) {
  const { before } = await ctx.execute(backupAggregate, input.backupId, { type: 'RemoveBackup', data: { backupId: input.backupId } });
  if (before) await stopUsing(ctx, 'destination', before.destinationId, input.backupId);
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
    mustBeSchedule(input.schedule);
    const backupId = ctx.newId(backupAggregate);
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
    mustBeSchedule(input.schedule);
    // A null `enabled` is "not said", as on create: it leaves the backup as it was.
    const { enabled, ...rest } = input;
    return moveUse(ctx, 'destination', current.destinationId, input.destinationId, input.backupId, DESTINATION_USE,
      () => change(backupAggregate, () => ({ type: 'UpdateBackup', data: { ...rest, ...(enabled != null && { enabled }) } }))(input, ctx));
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
