// Backups and the object-storage destinations they upload to.
import { Type } from '@sinclair/typebox';
import { group, get, none, post } from './operation.ts';
import { BackupRecord, DestinationRecord } from './records.ts';
import { BACKUP_DATABASE_TYPES, Bool, Closed, Nullable, MinStr, OneOf, OptNull, Str } from './schema.ts';

export { BACKUP_DATABASE_TYPES } from './schema.ts';

const backupFields = {
  schedule: Str(), enabled: OptNull(Bool()), prefix: MinStr(), destinationId: Str(), database: MinStr(),
};
const backupId = Closed({ backupId: Str() });
/** A backup with the destination it uploads to, as much of it as a backup's reader needs (no keys). */
const BackupWithDestination = Closed({
  ...BackupRecord.properties,
  destination: Nullable(Closed({ destinationId: Str(), name: Str(), bucket: Str() })),
});

export const backup = group('backup', {
  create: post(Closed({
    ...backupFields,
    dbalphaId: OptNull(Str()), dbbetaId: OptNull(Str()), dbgammaId: OptNull(Str()), dbdeltaId: OptNull(Str()),
    databaseType: OneOf(BACKUP_DATABASE_TYPES),
  }), BackupRecord),
  one: get(backupId, BackupWithDestination),
  update: post(Closed({ ...backupFields, backupId: Str() }), BackupRecord),
  remove: post(backupId, BackupRecord),
  manualBackupDbgamma: post(backupId, BackupRecord),
  manualBackupDbbeta: post(backupId, BackupRecord),
  manualBackupDbalpha: post(backupId, BackupRecord),
  manualBackupDbdelta: post(backupId, BackupRecord),
});

const destinationFields = {
  name: MinStr(), accessKey: Str(), bucket: Str(), region: Str(), endpoint: Str(), secretAccessKey: Str(),
};
const destinationId = Closed({ destinationId: Str() });

export const destination = group('destination', {
  create: post(Closed(destinationFields), DestinationRecord),
  testConnection: post(Closed(destinationFields), Closed({ ok: Bool(), bucket: Str() })),
  one: get(destinationId, DestinationRecord),
  all: get(none, Type.Array(DestinationRecord)),
  remove: post(destinationId, DestinationRecord),
  update: post(Closed({ ...destinationFields, destinationId: Str() }), DestinationRecord),
});
