// Backups and the object-storage destinations they upload to.
import { Type } from '@sinclair/typebox';
import { group, get, none, post } from './operation.ts';
import { BackupRecord, BackupRunRecord, DestinationRecord } from './records.ts';
import { BACKUP_DATABASE_TYPES, Bool, Closed, Nullable, MinStr, OneOf, Opt, OptNull, Str } from './schema.ts';

export { BACKUP_DATABASE_TYPES } from './schema.ts';

const backupFields = {
  schedule: Str(), enabled: OptNull(Bool()), prefix: MinStr(), destinationId: Str(), database: MinStr(),
  /** Beyond the spec: after a successful run, only this many newest objects are kept. */
  keepLatest: OptNull(Type.Integer({ minimum: 1, maximum: 10000 })),
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
    dbalphaId: OptNull(Str()), dbbetaId: OptNull(Str()), dbgammaId: OptNull(Str()), dbdeltaId: OptNull(Str()), dbepsilonId: OptNull(Str()),
    databaseType: OneOf(BACKUP_DATABASE_TYPES),
  }), BackupRecord),
  one: get(backupId, BackupWithDestination),
  update: post(Closed({ ...backupFields, backupId: Str() }), BackupRecord),
  remove: post(backupId, BackupRecord),
  // A manual backup answers with the run it made: its outcome, object key, size or reason.
  manualBackupDbgamma: post(backupId, BackupRunRecord),
  manualBackupDbbeta: post(backupId, BackupRunRecord),
  manualBackupDbalpha: post(backupId, BackupRunRecord),
  manualBackupDbdelta: post(backupId, BackupRunRecord),
  // Beyond the spec: the key-value kind, the runs of a backup (newest first), and a restore.
  manualBackupDbepsilon: post(backupId, BackupRunRecord),
  runs: get(backupId, Type.Array(BackupRunRecord)),
  restore: post(Closed({
    backupId: Str(), key: Opt(MinStr()),
    dbalphaId: Opt(MinStr()), dbbetaId: Opt(MinStr()), dbgammaId: Opt(MinStr()), dbdeltaId: Opt(MinStr()), dbepsilonId: Opt(MinStr()),
  }), BackupRunRecord),
});

/** Sent in each request's Authorization header: anything else can never sign in, and only broke the request. */
const AccessKey = () => Type.String({ pattern: '^[\\x21-\\x7E]*$', description: 'letters, digits and signs of plain ASCII, without spaces (it is sent in a request header)' });

const destinationFields = {
  name: MinStr(), accessKey: AccessKey(), bucket: Str(), region: Str(), endpoint: Str(), secretAccessKey: Str(),
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
