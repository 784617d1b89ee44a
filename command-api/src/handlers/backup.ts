import type { contract } from '@berth/shared/contract/index';
import { BACKUP_DATABASE_TYPES } from '@berth/shared/contract/storage';
import { backupAggregate, ownerField, ownerOf, type Backup, type BackupDatabaseType, type OwnerField } from '@berth/shared/domain/backup/backup';
import { createdBackupOf, decideFolder, folderClaimOf, folderName, folderTaken, mustBeAloneIn } from '@berth/shared/domain/backup/folder';
import { mustBePrefix } from '@berth/shared/domain/backup/prefix';
import { mustBeSchedule } from '@berth/shared/domain/backup/schedule';
import { destinationAggregate } from '@berth/shared/domain/destination/destination';
import { databaseAggregates } from '@berth/shared/domain/database/database';
import { reservationAggregate, reservationKey } from '@berth/shared/domain/reservation/reservation';
import { streamName } from '@berth/shared/events/event';
import type { Context } from '../context.ts';
import { change, type GroupHandlers } from './kit.ts';
import { manualBackup, restore, runs } from './backup-runs.ts';
import { DESTINATION_USE } from './destination.ts';
import { claim, moveNames, moveUse, release, stopUsing, use } from './reservations.ts';
import { retireWithDependents, type DependentKind } from './cascade.ts';
import { databaseUse, leaveDatabase, ofDatabase } from './database-use.ts';

/**
 * Claims the folder `name` for the database of a backup (`backupId`, new or existing): 409 naming
 * prefix when it is another database's (see decideFolder), or another live backup of this
 * database is seen in it (one stored before slots; the slot decides for the others).
 */
async function claimFolder(ctx: Context, name: string, backup: Pick<Backup, 'backupId' | 'databaseType'> & Partial<Record<OwnerField, string | null>>) {
  const databaseId = ownerOf(backup);
  const siblings = (await ctx.list(backupAggregate, ownerField(backup.databaseType), databaseId))
    .map((doc) => ({ backupId: String(doc.backupId), destinationId: String(doc.destinationId), prefix: String(doc.prefix) }));
  mustBeAloneIn(name, backup.backupId, siblings);
  const key = reservationKey('backupFolder', name);
  const store = ctx.infra.eventStore;
  const folderClaim = folderClaimOf((await store.readStream(streamName(reservationAggregate.name, key))).events);
  // A claimant other than the database may be a backup id (a claim from before folders belonged to databases).
  const claimantBackup = folderClaim && folderClaim.claimant !== databaseId
    ? createdBackupOf((await store.readStream(streamName(backupAggregate.name, folderClaim.claimant))).events)
    : null;
  if (decideFolder(name, databaseId, folderClaim, claimantBackup) === 'claim') await claim(ctx, 'backupFolder', name, databaseId, 'prefix', () => folderTaken(name));
}

/**
 * Applies a change that puts a backup (new, or moving from the folder `current`) in the folder
 * `next`: the folder is claimed for its database, then its slot for the backup (409 naming prefix
 * when another backup holds it), let go again if the change fails; the slot left is let go after.
 */
async function intoFolder<T>(
  ctx: Context, current: string | null, next: string, backup: Parameters<typeof claimFolder>[2], apply: () => Promise<T>,
): Promise<T> {
  if (next !== current) await claimFolder(ctx, next, backup);
  return moveNames(ctx, 'backupSlot', current === null ? [] : [current], [next], backup.backupId, apply, 'prefix', () => folderTaken(next));
}

/**
 * Removes one backup, as `backup.remove` does, then takes it off its destination's and its
 * database's users and lets its folder's slot go. The folder stays its database's: the dumps it
 * wrote are still there; its run records go (the reactors prune them on BackupRemoved).
 */
async function removeBackup(input: { backupId: string }, ctx: Context) {
  const { before } = await ctx.execute(backupAggregate, input.backupId, { type: 'RemoveBackup', data: { backupId: input.backupId } });
  if (before) {
    await stopUsing(ctx, 'destination', before.destinationId, input.backupId);
    const databaseId = before[ownerField(before.databaseType)];
    if (databaseId) await leaveDatabase(ctx, databaseId, input.backupId);
    await release(ctx, 'backupSlot', folderName(before), input.backupId);
  }
  return ctx.view(backupAggregate, before);
}

/** Backups go with their database, each by its own removal. */
const backupKind: DependentKind = { aggregate: backupAggregate, remove: (backupId, ctx) => removeBackup({ backupId }, ctx) };

/**
 * Removes every backup of a database, then retires the database in the log, before its record
 * goes: a backup created for it meanwhile goes too, and none can be created after.
 */
export const retireWithBackups = (ctx: Context, type: BackupDatabaseType, databaseId: string): Promise<void> =>
  retireWithDependents(ctx, 'database', databaseId, databaseUse(type), 'is still being given backups; try again', {
    kinds: [backupKind], field: ownerField(type),
  });

/** The destination a backup uploads to, as much of it as a backup's reader needs (no keys). */
async function destinationSummary(destinationId: string, ctx: Context) {
  const destination = await ctx.infra.readStore.get(destinationAggregate.name, destinationId);
  return destination && { destinationId, name: destination.name, bucket: destination.bucket };
}

export const backup: GroupHandlers<typeof contract.backup> = {
  create: async (input, ctx) => {
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
    const data: Backup = {
      backupId, schedule: input.schedule, enabled: input.enabled ?? true, prefix: input.prefix,
      destinationId: input.destinationId, database: input.database, databaseType, ...owners, createdAt: ctx.now,
      keepLatest: input.keepLatest ?? null,
    };
    // Counted in the log among its database's users once written, so a database being removed takes it too.
    return ofDatabase(ctx, databaseType, databaseId, backupId, () => intoFolder(ctx, null, folderName(input), data, async () => {
      // Counted in the log among the destination's users, so the destination cannot go meanwhile.
      await use(ctx, 'destination', input.destinationId, backupId, DESTINATION_USE);
      return change(backupAggregate, () => ({ type: 'CreateBackup', data }))(input, ctx);
    }), () => removeBackup({ backupId }, ctx));
  },
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
    // The new folder is claimed first, so a refusal appends nothing; the one left stays the database's.
    return intoFolder(ctx, folderName(current), folderName(input), current,
      () => moveUse(ctx, 'destination', current.destinationId, input.destinationId, input.backupId, DESTINATION_USE, apply));
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
