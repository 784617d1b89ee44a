// Backups and the object-storage destinations they upload to.
import { group, get, none, post } from './operation.ts';
import { Bool, Closed, MinStr, OneOf, OptNull, Str } from './schema.ts';

export const BACKUP_DATABASE_TYPES = ['dbgamma', 'dbalpha', 'dbbeta', 'dbdelta'] as const;

const backupFields = {
  schedule: Str(), enabled: OptNull(Bool()), prefix: MinStr(), destinationId: Str(), database: MinStr(),
};
const backupId = Closed({ backupId: Str() });

export const backup = group('backup', {
  create: post(Closed({
    ...backupFields,
    dbalphaId: OptNull(Str()), dbbetaId: OptNull(Str()), dbgammaId: OptNull(Str()), dbdeltaId: OptNull(Str()),
    databaseType: OneOf(BACKUP_DATABASE_TYPES),
  })),
  one: get(backupId),
  update: post(Closed({ ...backupFields, backupId: Str() })),
  remove: post(backupId),
  manualBackupDbgamma: post(backupId),
  manualBackupDbbeta: post(backupId),
  manualBackupDbalpha: post(backupId),
  manualBackupDbdelta: post(backupId),
});

const destinationFields = {
  name: MinStr(), accessKey: Str(), bucket: Str(), region: Str(), endpoint: Str(), secretAccessKey: Str(),
};
const destinationId = Closed({ destinationId: Str() });

export const destination = group('destination', {
  create: post(Closed(destinationFields)),
  testConnection: post(Closed(destinationFields)),
  one: get(destinationId),
  all: get(none),
  remove: post(destinationId),
  update: post(Closed({ ...destinationFields, destinationId: Str() })),
});
