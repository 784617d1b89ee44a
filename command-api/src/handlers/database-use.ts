// A backup counts among its database's users in the log from its creation to its removal: a
// database being removed takes the backups created for it meanwhile with it, and a backup created
// for a database already gone is refused, NOT_FOUND naming the database's id field.
import { ownerField, type BackupDatabaseType } from '@berth/shared/domain/backup/backup';
import type { UsageWords } from '@berth/shared/domain/usage/usage';
import type { Context } from '../context.ts';
import { createUser, stopUsing } from './reservations.ts';

/** The words of a database's usage: its id field is its engine's (`dbgammaId`). */
export const databaseUse = (type: BackupDatabaseType): UsageWords => ({ label: 'Database', field: ownerField(type), users: 'backup(s)' });

/** Creates a backup of an existing database, which counts it among its users once written (see createUser). */
export const ofDatabase = <T>(
  ctx: Context, type: BackupDatabaseType, databaseId: string, backupId: string, create: () => Promise<T>, remove: () => Promise<unknown>,
): Promise<T> => createUser(ctx, 'database', databaseId, backupId, databaseUse(type), create, remove);

export const leaveDatabase = (ctx: Context, databaseId: string, backupId: string) => stopUsing(ctx, 'database', databaseId, backupId);
