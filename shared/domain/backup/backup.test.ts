import { describe, it } from 'node:test';
import { specOf } from '../testing.ts';
import { backupAggregate, type Backup } from './backup.ts';

const spec = specOf(backupAggregate);
const created: Backup = {
  backupId: 'b1', schedule: '0 3 * * *', enabled: true, prefix: 'nightly', destinationId: 'd1', database: 'app',
  databaseType: 'dbgamma', dbalphaId: null, dbbetaId: null, dbgammaId: 'g1', dbdeltaId: null, dbepsilonId: null, createdAt: '2026-01-01T00:00:00.000Z',
};
const change = { backupId: 'b1', schedule: '0 3 * * *', prefix: 'nightly', destinationId: 'd1', database: 'app', at: '2026-01-01T00:00:00.000Z' };

describe('backup decider', () => {
  it('creates a backup of the database its type names', () => {
    spec.given([]).when({ type: 'CreateBackup', data: created }).then([{ type: 'BackupCreated', data: created }]);
  });
  it('accepts a six-field schedule with seconds and a nickname', () => {
    for (const schedule of ['*/30 * * * * *', '@daily']) {
      spec.given([]).when({ type: 'CreateBackup', data: { ...created, schedule } })
        .then([{ type: 'BackupCreated', data: { ...created, schedule } }]);
    }
  });
  it('refuses a schedule that is not a cron expression, naming schedule', () => {
    for (const schedule of ['every night', '61 * * * *', '']) {
      spec.given([]).when({ type: 'CreateBackup', data: { ...created, schedule } }).thenFails('BAD_REQUEST', 'schedule');
    }
  });
  it('refuses a schedule that never fires, or fires once, on create and on update, naming schedule', () => {
    // February 30th, April 31st, a year gone by, a date (croner reads it as a one-off), a single year.
    for (const schedule of ['0 0 30 2 *', '0 0 31 4 *', '0 0 3 * * * 2020', '2020-01-01T00:00:00', '2099-01-01T00:00:00Z', '0 0 0 1 1 * 2030']) {
      spec.given([]).when({ type: 'CreateBackup', data: { ...created, schedule } }).thenFails('BAD_REQUEST', 'schedule');
      spec.given([{ type: 'BackupCreated', data: created }]).when({ type: 'UpdateBackup', data: { ...change, schedule } }).thenFails('BAD_REQUEST', 'schedule');
    }
  });
  it('keeps a rare but recurring schedule valid: February 29th, a last day, a nickname', () => {
    for (const schedule of ['0 3 29 2 *', '0 0 L * *', '0 0 3 ? * *', '@yearly']) {
      spec.given([]).when({ type: 'CreateBackup', data: { ...created, schedule } }).then([{ type: 'BackupCreated', data: { ...created, schedule } }]);
    }
  });
  it('refuses a prefix that is not one plain folder, on create and on update, naming prefix', () => {
    // Past what leaves room in an object's key (1,024 bytes) for the timestamp and extension after it.
    for (const prefix of ['/x', '/', ' x', 'x ', '../x', 'a/../b', 'a//b', './a', 'a/.', 'x//', 'a\u0000b', 'a\nb', 'x'.repeat(961), 'é'.repeat(481)]) {
      spec.given([]).when({ type: 'CreateBackup', data: { ...created, prefix } }).thenFails('BAD_REQUEST', 'prefix');
      spec.given([{ type: 'BackupCreated', data: created }]).when({ type: 'UpdateBackup', data: { ...change, prefix } }).thenFails('BAD_REQUEST', 'prefix');
    }
    for (const prefix of ['nightly/', 'db/nested', 'my backups/2026', '.hidden', 'x'.repeat(960)]) {
      spec.given([]).when({ type: 'CreateBackup', data: { ...created, prefix } }).then([{ type: 'BackupCreated', data: { ...created, prefix } }]);
    }
  });
  it('refuses a backup without the id of the database its type names', () => {
    spec.given([]).when({ type: 'CreateBackup', data: { ...created, dbgammaId: null } }).thenFails('BAD_REQUEST', 'dbgammaId');
  });
  it('refuses a backup that also names a database of another engine', () => {
    spec.given([]).when({ type: 'CreateBackup', data: { ...created, dbalphaId: 'a1' } }).thenFails('BAD_REQUEST', 'dbalphaId');
  });
  it('refuses to create a backup twice', () => {
    spec.given([{ type: 'BackupCreated', data: created }]).when({ type: 'CreateBackup', data: created }).thenFails('CONFLICT', 'backupId');
  });
  it('records only what an update changes', () => {
    spec.given([{ type: 'BackupCreated', data: created }])
      .when({ type: 'UpdateBackup', data: { ...change, schedule: '0 4 * * *', enabled: false } })
      .then([{ type: 'BackupUpdated', data: { backupId: 'b1', schedule: '0 4 * * *', enabled: false } }]);
  });
  it('appends nothing for an update that changes nothing', () => {
    spec.given([{ type: 'BackupCreated', data: created }]).when({ type: 'UpdateBackup', data: change }).then([]);
  });
  it('refuses an update to a schedule that is not a cron expression', () => {
    spec.given([{ type: 'BackupCreated', data: created }])
      .when({ type: 'UpdateBackup', data: { ...change, schedule: '* *' } }).thenFails('BAD_REQUEST', 'schedule');
  });
  it('answers NOT_FOUND naming backupId once the backup is removed', () => {
    const history = [{ type: 'BackupCreated', data: created }, { type: 'BackupRemoved', data: { backupId: 'b1' } }] as const;
    spec.given(history).when({ type: 'UpdateBackup', data: change }).thenFails('NOT_FOUND', 'backupId');
    spec.given(history).when({ type: 'RemoveBackup', data: { backupId: 'b1' } }).thenFails('NOT_FOUND', 'backupId');
  });

  it('records a manual run or a restore asked of an existing backup, for the reactors, and refuses one of a removed backup', () => {
    const asked = { backupId: 'b1', runId: 'r1', at: '2026-01-01T00:00:00.000Z', kind: 'restore', databaseId: 'g2', key: 'nightly/a.dump.gz', database: 'app' } as const;
    spec.given([{ type: 'BackupCreated', data: created }]).when({ type: 'RequestBackupRun', data: asked })
      .then([{ type: 'BackupRunRequested', data: asked }]);
    spec.given([{ type: 'BackupCreated', data: created }, { type: 'BackupRemoved', data: { backupId: 'b1' } }])
      .when({ type: 'RequestBackupRun', data: asked }).thenFails('NOT_FOUND', 'backupId');
  });
});
