import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

const SECRET = 'wJalrXUtnFEMI-destination-secret';

const destinationInput = (name: string) => ({
  name, accessKey: 'AKIAEXAMPLE', bucket: 'backups', region: 'us-east-1', endpoint: 'https://s3.example.com', secretAccessKey: SECRET,
});

const paths = (body: { issues: Array<{ path?: string }> }) => body.issues.map((issue) => issue.path);

describe('destination and backup operations', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  const logText = async () => JSON.stringify(await berth.berth.infrastructure.eventStore.readAll(0, 100000));
  const destination = async (name = 'bucket') => (await berth.ok('destination.create', destinationInput(name))).destinationId as string;
  const database = async () => {
    const { projectId } = await berth.ok('project.create', { name: 'data' });
    const created = await berth.ok('dbgamma.create', {
      name: 'orders', appName: 'orders', projectId, databaseName: 'orders', databaseUser: 'app', databasePassword: '',
    });
    return created.dbgammaId as string;
  };
  const backupInput = (dbgammaId: string, destinationId: string) => ({
    schedule: '0 3 * * *', prefix: 'nightly', destinationId, database: 'orders', databaseType: 'dbgamma', dbgammaId,
  });

  describe('destination', () => {
    it('answers the secret key to the admin but never writes it to the log in clear', async () => {
      const created = await berth.ok('destination.create', destinationInput('vault'));
      assert.equal(created.secretAccessKey, SECRET);
      assert.equal((await berth.ok('destination.one', { destinationId: created.destinationId })).secretAccessKey, SECRET);
      assert.ok(!(await logText()).includes(SECRET));
    });

    it('lists destinations newest first', async () => {
      const first = await destination('first');
      const second = await destination('second');
      const ids = (await berth.ok('destination.all')).map((d: { destinationId: string }) => d.destinationId);
      assert.ok(ids.indexOf(second) < ids.indexOf(first));
    });

    it('updates what changed, and appends nothing when the same fields come back', async () => {
      const destinationId = await destination('edit');
      const same = await berth.call('destination.update', { ...destinationInput('edit'), destinationId });
      assert.equal(same.status, 200);
      const head = await berth.head();
      await berth.ok('destination.update', { ...destinationInput('edit'), destinationId });
      assert.equal(await berth.head(), head);
      const changed = await berth.ok('destination.update', { ...destinationInput('edit'), destinationId, bucket: 'archive', secretAccessKey: 'rotated-key-42' });
      assert.equal(changed.bucket, 'archive');
      assert.equal(changed.secretAccessKey, 'rotated-key-42');
      assert.ok(!(await logText()).includes('rotated-key-42'));
    });

    it('answers NOT_FOUND naming destinationId for an unknown one, appending nothing', async () => {
      const head = await berth.head();
      for (const [op, input] of [
        ['destination.one', { destinationId: 'nope' }], ['destination.remove', { destinationId: 'nope' }],
        ['destination.update', { ...destinationInput('x'), destinationId: 'nope' }],
      ] as const) {
        const answer = await berth.call(op, input);
        assert.equal(answer.status, 404, op);
        assert.deepEqual(paths(answer.body), ['destinationId']);
      }
      assert.equal(await berth.head(), head);
    });

    it('removes an unused destination and answers it', async () => {
      const destinationId = await destination('gone');
      const removed = await berth.ok('destination.remove', { destinationId });
      assert.equal(removed.name, 'gone');
      assert.equal((await berth.call('destination.one', { destinationId })).status, 404);
    });

    it('says testConnection is not built yet, once the fields are valid', async () => {
      const head = await berth.head();
      const answer = await berth.call('destination.testConnection', destinationInput('probe'));
      assert.equal(answer.status, 501);
      assert.equal(answer.body.code, 'NOT_IMPLEMENTED');
      assert.equal((await berth.call('destination.testConnection', { name: '' })).status, 400);
      assert.equal(await berth.head(), head);
    });
  });

  describe('backup', () => {
    it('creates an enabled backup of a database, and shows it with its destination', async () => {
      const dbgammaId = await database();
      const destinationId = await destination('nightly-bucket');
      const created = await berth.ok('backup.create', backupInput(dbgammaId, destinationId));
      assert.equal(created.backupId.length, 21);
      assert.equal(created.enabled, true);
      assert.equal(created.databaseType, 'dbgamma');
      assert.equal(created.dbgammaId, dbgammaId);
      assert.equal(created.dbalphaId, null);
      const one = await berth.ok('backup.one', { backupId: created.backupId });
      assert.deepEqual(one.destination, { destinationId, name: 'nightly-bucket', bucket: 'backups' });
      assert.ok(!JSON.stringify(one).includes(SECRET), 'a backup shows no destination key');
    });

    it('refuses a backup without the id of the database its type names, naming that field', async () => {
      const destinationId = await destination();
      const head = await berth.head();
      const { dbgammaId: _omitted, ...input } = backupInput('x', destinationId);
      const answer = await berth.call('backup.create', input);
      assert.equal(answer.status, 400);
      assert.deepEqual(paths(answer.body), ['dbgammaId']);
      const wrongEngine = await berth.call('backup.create', { ...input, dbalphaId: 'a1' });
      assert.equal(wrongEngine.status, 400);
      assert.deepEqual(paths(wrongEngine.body), ['dbgammaId']);
      assert.equal(await berth.head(), head);
    });

    it('answers NOT_FOUND naming the database or destination that does not exist', async () => {
      const dbgammaId = await database();
      const destinationId = await destination();
      const head = await berth.head();
      const noDatabase = await berth.call('backup.create', backupInput('nope', destinationId));
      assert.equal(noDatabase.status, 404);
      assert.deepEqual(paths(noDatabase.body), ['dbgammaId']);
      const noDestination = await berth.call('backup.create', backupInput(dbgammaId, 'nope'));
      assert.equal(noDestination.status, 404);
      assert.deepEqual(paths(noDestination.body), ['destinationId']);
      assert.equal(await berth.head(), head);
    });

    it('refuses a schedule that is not a cron expression, on create and on update', async () => {
      const dbgammaId = await database();
      const destinationId = await destination();
      const head = await berth.head();
      const answer = await berth.call('backup.create', { ...backupInput(dbgammaId, destinationId), schedule: 'every night' });
      assert.equal(answer.status, 400);
      assert.deepEqual(paths(answer.body), ['schedule']);
      assert.equal(await berth.head(), head);
      const { backupId } = await berth.ok('backup.create', backupInput(dbgammaId, destinationId));
      const update = await berth.call('backup.update', {
        backupId, schedule: '0 25 * * *', prefix: 'nightly', destinationId, database: 'orders',
      });
      assert.equal(update.status, 400);
      assert.deepEqual(paths(update.body), ['schedule']);
    });

    it('updates schedule, destination and enabled, keeping the database it backs up', async () => {
      const dbgammaId = await database();
      const { backupId } = await berth.ok('backup.create', backupInput(dbgammaId, await destination()));
      const moved = await destination('moved');
      const updated = await berth.ok('backup.update', {
        backupId, schedule: '*/15 * * * *', prefix: 'hourly', destinationId: moved, database: 'orders', enabled: false,
      });
      assert.equal(updated.schedule, '*/15 * * * *');
      assert.equal(updated.destinationId, moved);
      assert.equal(updated.enabled, false);
      assert.equal(updated.dbgammaId, dbgammaId);
      const missing = await berth.call('backup.update', {
        backupId, schedule: '0 3 * * *', prefix: 'p', destinationId: 'nope', database: 'orders',
      });
      assert.equal(missing.status, 404);
      assert.deepEqual(paths(missing.body), ['destinationId']);
    });

    it('refuses to remove a destination a backup uploads to', async () => {
      const destinationId = await destination('in-use');
      const { backupId } = await berth.ok('backup.create', backupInput(await database(), destinationId));
      const head = await berth.head();
      const answer = await berth.call('destination.remove', { destinationId });
      assert.equal(answer.status, 409);
      assert.deepEqual(paths(answer.body), ['destinationId']);
      assert.equal(await berth.head(), head);
      await berth.ok('backup.remove', { backupId });
      assert.equal((await berth.ok('destination.remove', { destinationId })).destinationId, destinationId);
    });

    it('runs a manual backup only for its own engine, then says backups are not built yet', async () => {
      const { backupId } = await berth.ok('backup.create', backupInput(await database(), await destination()));
      const head = await berth.head();
      const own = await berth.call('backup.manualBackupDbgamma', { backupId });
      assert.equal(own.status, 501);
      assert.equal(own.body.code, 'NOT_IMPLEMENTED');
      const other = await berth.call('backup.manualBackupDbalpha', { backupId });
      assert.equal(other.status, 400);
      assert.deepEqual(paths(other.body), ['backupId']);
      const unknown = await berth.call('backup.manualBackupDbgamma', { backupId: 'nope' });
      assert.equal(unknown.status, 404);
      assert.equal(await berth.head(), head);
    });

    it('removes a backup, answers it, then answers NOT_FOUND', async () => {
      const { backupId } = await berth.ok('backup.create', backupInput(await database(), await destination()));
      const removed = await berth.ok('backup.remove', { backupId });
      assert.equal(removed.backupId, backupId);
      const gone = await berth.call('backup.one', { backupId });
      assert.equal(gone.status, 404);
      assert.deepEqual(paths(gone.body), ['backupId']);
      assert.equal((await berth.call('backup.remove', { backupId })).status, 404);
    });

    it('removes the backups of a database with the database', async () => {
      const dbgammaId = await database();
      const { backupId } = await berth.ok('backup.create', backupInput(dbgammaId, await destination()));
      await berth.ok('dbgamma.remove', { dbgammaId });
      assert.equal((await berth.call('backup.one', { backupId })).status, 404);
    });
  });
});
