import { BACKUP_DATABASE_TYPES } from '../../contract/storage.ts';
import { badRequest } from '../../errors.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist, updated } from '../decisions.ts';
import { mustBePrefix } from './prefix.ts';
import { mustBeSchedule } from './schedule.ts';

export type BackupDatabaseType = (typeof BACKUP_DATABASE_TYPES)[number];
export type OwnerField = `${BackupDatabaseType}Id`;

/** The field of a backup that names its database service: `dbgammaId` for a dbgamma backup. */
export const ownerField = (type: BackupDatabaseType): OwnerField => `${type}Id`;

/** A scheduled dump of one database, uploaded to a destination. */
export type Backup = Record<OwnerField, string | null> & {
  backupId: string;
  schedule: string;
  enabled: boolean | null;
  prefix: string;
  destinationId: string;
  /** The database (schema) to dump inside the database service. */
  database: string;
  databaseType: BackupDatabaseType;
  createdAt: string;
  /** Beyond the spec: objects kept after a successful run (older ones pruned); null keeps all. */
  keepLatest?: number | null;
};

/**
 * The owning database of a backup: the id in the field its `databaseType` names, and no other.
 * Answers that id, or BAD_REQUEST naming the field that is missing or set for another engine.
 */
export function ownerOf(backup: { databaseType: BackupDatabaseType } & Partial<Record<OwnerField, string | null>>): string {
  const field = ownerField(backup.databaseType);
  const id = backup[field];
  if (!id) throw badRequest(field, `is required for a ${backup.databaseType} backup`);
  for (const type of BACKUP_DATABASE_TYPES) {
    const other = ownerField(type);
    if (other !== field && backup[other]) throw badRequest(other, `must be empty for a ${backup.databaseType} backup`);
  }
  return id;
}

/** What update may change: the owner and engine of a backup are fixed at creation. */
export type BackupChange = Pick<Backup, 'backupId' | 'schedule' | 'prefix' | 'destinationId' | 'database'> & Partial<Pick<Backup, 'enabled' | 'keepLatest'>>;

/**
 * A manual backup, or a restore, asked through the API and run by the reactors: `databaseId` is
 * the database dumped or restored into; a restore names the object and the database inside it.
 */
export type RunRequest =
  | { backupId: string; runId: string; at: string; kind: 'backup'; databaseId: string }
  /** `key` null: the newest successful run's object, chosen when the restore runs. */
  | { backupId: string; runId: string; at: string; kind: 'restore'; databaseId: string; key: string | null; database: string };

export type BackupCommand =
  | { type: 'CreateBackup'; data: Backup }
  | { type: 'RequestBackupRun'; data: RunRequest }
  /** `at`: when it is asked, for the schedule's next runs; not recorded. */
  | { type: 'UpdateBackup'; data: BackupChange & { at: string } }
  | { type: 'RemoveBackup'; data: { backupId: string } };

export type BackupEvent =
  | { type: 'BackupCreated'; data: Backup }
  | { type: 'BackupUpdated'; data: Pick<Backup, 'backupId'> & Partial<Backup> }
  | { type: 'BackupRemoved'; data: { backupId: string } }
  | { type: 'BackupRunRequested'; data: RunRequest };

const LABEL = 'Backup';

export const backupAggregate: Aggregate<Backup, BackupCommand, BackupEvent> = {
  name: 'backup',
  idField: 'backupId',
  label: LABEL,
  evolve(state, event) {
    switch (event.type) {
      case 'BackupCreated': return { ...event.data };
      case 'BackupUpdated': return state && { ...state, ...event.data };
      case 'BackupRemoved': return null;
      case 'BackupRunRequested': return state;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateBackup':
        mustNotExist(state, LABEL, 'backupId');
        ownerOf(command.data);
        mustBeSchedule(command.data.schedule, new Date(command.data.createdAt));
        mustBePrefix(command.data.prefix);
        return [{ type: 'BackupCreated', data: command.data }];
      case 'UpdateBackup': {
        const backup = mustExist(state, 'backupId', LABEL);
        const { at, ...change } = command.data;
        mustBeSchedule(change.schedule, new Date(at));
        mustBePrefix(change.prefix);
        return updated('BackupUpdated', 'backupId', backup.backupId, backup, change);
      }
      case 'RemoveBackup':
        mustExist(state, 'backupId', LABEL);
        return [{ type: 'BackupRemoved', data: command.data }];
      case 'RequestBackupRun':
        mustExist(state, 'backupId', LABEL);
        return [{ type: 'BackupRunRequested', data: command.data }];
      default: return exhaustive(command);
    }
  },
};
