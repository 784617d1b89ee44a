// A backup folder on a shared destination belongs to the database whose backups wrote it: its dumps
// outlive the backup (and the database), so once a backup is removed, moved away or its database
// removed, another database's backup is refused the folder (409 naming prefix, nothing appended):
// it could restore those dumps into its own database or prune them. The same database's next
// backup takes it again. No engine or S3 is needed: it is all decided on create and update.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DomainEvent } from '@berth/shared/events/event';
import { streamName } from '@berth/shared/events/event';
import { envelope } from '@berth/shared/runtime/execute';
import { pathsOf, startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { ALL_FLAGS, invitedUser } from '../support/users.ts';

describe('a backup folder stays its database\'s', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    projectId = (await berth.ok('project.create', { name: 'folders' })).projectId;
  });
  after(() => berth.stop());

  const destination = async () => (await berth.ok('destination.create', {
    name: 'shared', accessKey: 'AK', bucket: 'backups', region: 'us-east-1', endpoint: 'https://s3.example.com', secretAccessKey: 'SK-123456',
  })).destinationId as string;
  let databases = 0;
  const database = async (inProject = projectId) => (await berth.ok('dbgamma.create', {
    name: 'main', appName: `main-${++databases}`, projectId: inProject, ...databaseCredentials('dbgamma'),
  })).dbgammaId as string;
  const backupOf = (dbgammaId: string, destinationId: string, prefix: string) => ({
    schedule: '0 3 * * *', prefix, destinationId, database: 'app', databaseType: 'dbgamma', dbgammaId, keepLatest: 1,
  });
  const create = async (dbgammaId: string, destinationId: string, prefix: string) =>
    (await berth.ok('backup.create', backupOf(dbgammaId, destinationId, prefix))).backupId as string;
  const changeOf = (backupId: string, destinationId: string, prefix: string) => ({
    backupId, schedule: '0 3 * * *', prefix, destinationId, database: 'app',
  });

  /** Appends what a backup.create appended before folders belonged to databases: its folder claimed for the backup. */
  async function legacyBackup(dbgammaId: string, destinationId: string, prefix: string, removed = false): Promise<string> {
    const backupId = `legacy${Math.random().toString(36).slice(2, 17)}`;
    const cause = { actorId: null, correlationId: 'legacy', causationId: null, occurredAt: new Date().toISOString() };
    const append = (stream: string, events: DomainEvent[]) =>
      berth.berth.infrastructure.eventStore.append(stream, events.map((event) => envelope(event, cause)), 'any');
    const claim = { key: `backupFolder:${destinationId}/${prefix}/`, owner: backupId };
    await append(streamName('reservation', claim.key), [{ type: 'NameReserved', data: claim },
      ...(removed ? [{ type: 'NameReleased', data: claim }] : [])]);
    await append(streamName('usage', `destination:${destinationId}`), [{ type: 'UsageStarted', data: { key: `destination:${destinationId}`, user: backupId } },
      ...(removed ? [{ type: 'UsageEnded', data: { key: `destination:${destinationId}`, user: backupId } }] : [])]);
    const data = {
      backupId, schedule: '0 3 * * *', enabled: true, prefix, destinationId, database: 'app', databaseType: 'dbgamma',
      dbgammaId, dbalphaId: null, dbbetaId: null, dbdeltaId: null, dbepsilonId: null, createdAt: new Date().toISOString(), keepLatest: null,
    };
    await append(streamName('backup', backupId), [{ type: 'BackupCreated', data },
      ...(removed ? [{ type: 'BackupRemoved', data: { backupId } }] : [])]);
    return backupId;
  }

  it('refuses a backup of another project\'s database the folder of a removed backup, naming prefix, and appends nothing', async () => {
    const other = (await berth.ok('project.create', { name: 'other team' })).projectId as string;
    const theirs = await database(other);
    const mine = await database();
    const destinationId = await destination();
    const removed = await create(theirs, destinationId, 'team2');
    await berth.ok('backup.remove', { backupId: removed });
    const user = await invitedUser(berth, { ...ALL_FLAGS, accesedProjects: [projectId], accesedServices: [mine] });
    const head = await berth.head();
    const answer = await berth.call('backup.create', backupOf(mine, destinationId, 'team2'), { token: user.token });
    assert.equal(answer.status, 409, JSON.stringify(answer.body));
    assert.deepEqual(pathsOf(answer.body), ['prefix']);
    assert.equal(await berth.head(), head);
    // A trailing slash names the same folder; the admin is refused it too.
    await berth.refused('backup.create', backupOf(mine, destinationId, 'team2/'), 409, 'prefix');
    // Another folder, or the same folder on another destination, is free.
    await create(mine, destinationId, 'team1');
    await create(mine, await destination(), 'team2');
  });

  it('lets the same database\'s next backup take its removed backup\'s folder again', async () => {
    const dbgammaId = await database();
    const destinationId = await destination();
    const first = await create(dbgammaId, destinationId, 'nightly');
    await berth.ok('backup.remove', { backupId: first });
    const second = await create(dbgammaId, destinationId, 'nightly/');
    await berth.ok('backup.remove', { backupId: second });
    await create(dbgammaId, destinationId, 'nightly');
  });

  it('refuses a second live backup of the same database in one folder, naming prefix', async () => {
    const dbgammaId = await database();
    const destinationId = await destination();
    await create(dbgammaId, destinationId, 'daily');
    await berth.refused('backup.create', backupOf(dbgammaId, destinationId, 'daily'), 409, 'prefix');
    const weekly = await create(dbgammaId, destinationId, 'weekly');
    await berth.refused('backup.update', changeOf(weekly, destinationId, 'daily/'), 409, 'prefix');
    // Its own folder is still its own.
    await berth.ok('backup.update', { ...changeOf(weekly, destinationId, 'weekly/'), keepLatest: 4 });
  });

  it('keeps the folder a backup moved away from for its database', async () => {
    const dbgammaId = await database();
    const stranger = await database();
    const destinationId = await destination();
    const elsewhere = await destination();
    const backupId = await create(dbgammaId, destinationId, 'db');
    await berth.ok('backup.update', changeOf(backupId, destinationId, 'moved'));
    await berth.refused('backup.create', backupOf(stranger, destinationId, 'db'), 409, 'prefix');
    // Moved to another destination: both folders it used stay its database's.
    await berth.ok('backup.update', changeOf(backupId, elsewhere, 'db'));
    await berth.refused('backup.create', backupOf(stranger, destinationId, 'moved'), 409, 'prefix');
    const theirs = await create(stranger, destinationId, 'theirs');
    // Refused before anything is appended, the destination's users included.
    await berth.refused('backup.update', changeOf(theirs, elsewhere, 'db'), 409, 'prefix');
    await berth.refused('backup.update', changeOf(theirs, destinationId, 'db'), 409, 'prefix');
    // The database's own backups may go back to any of them.
    await berth.ok('backup.update', changeOf(backupId, destinationId, 'db'));
    await create(dbgammaId, destinationId, 'moved');
  });

  it('keeps the folder for its database once the database itself is removed', async () => {
    const removedDatabase = await database();
    const stranger = await database();
    const destinationId = await destination();
    await create(removedDatabase, destinationId, 'gone');
    await berth.ok('dbgamma.remove', { dbgammaId: removedDatabase });
    await berth.refused('backup.create', backupOf(stranger, destinationId, 'gone'), 409, 'prefix');
  });

  it('keeps a folder claimed by a backup made before folders belonged to databases for that backup\'s database', async () => {
    const dbgammaId = await database();
    const stranger = await database();
    const destinationId = await destination();
    const legacy = await legacyBackup(dbgammaId, destinationId, 'old');
    await berth.refused('backup.create', backupOf(stranger, destinationId, 'old'), 409, 'prefix');
    // The legacy backup keeps working in its folder, and moves away keeping it.
    await berth.ok('backup.update', { ...changeOf(legacy, destinationId, 'old/'), keepLatest: 3 });
    await berth.ok('backup.update', changeOf(legacy, destinationId, 'old-moved'));
    await berth.refused('backup.create', backupOf(stranger, destinationId, 'old'), 409, 'prefix');
    await berth.ok('backup.remove', { backupId: legacy });
    await berth.refused('backup.create', backupOf(stranger, destinationId, 'old-moved'), 409, 'prefix');
    await create(dbgammaId, destinationId, 'old');
    await create(dbgammaId, destinationId, 'old-moved');
  });

  it('keeps a folder a backup let go of on its removal before folders belonged to databases for that backup\'s database', async () => {
    const dbgammaId = await database();
    const stranger = await database();
    const destinationId = await destination();
    await legacyBackup(dbgammaId, destinationId, 'released', true);
    await berth.refused('backup.create', backupOf(stranger, destinationId, 'released'), 409, 'prefix');
    await create(dbgammaId, destinationId, 'released');
  });
});
