import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pathsOf, startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { startS3 } from '../support/s3.ts';
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

const SECRET = 'wJalrXUtnFEMI-destination-secret';

const destinationInput = (name: string) => ({
  name, accessKey: 'AKIAEXAMPLE', bucket: 'backups', region: 'us-east-1', endpoint: 'https://s3.example.com', secretAccessKey: SECRET,
});

describe('destination and backup operations', () => {
  let berth: TestBerth;
  // With the reactors: a manual backup is theirs to run.
  before(async () => { berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000 } }); });
  after(() => berth.stop());

  const destination = async (name = 'bucket') => (await berth.ok('destination.create', destinationInput(name))).destinationId as string;
  const database = async () => {
    const { projectId } = await berth.ok('project.create', { name: 'data' });
    const created = await berth.ok('dbgamma.create', {
      name: 'orders', appName: 'orders', projectId, ...databaseCredentials('dbgamma', { name: 'orders' }),
    });
    return created.dbgammaId as string;
  };
  const backupInput = (dbgammaId: string, destinationId: string) => ({
    // Runs here only when asked: the schedule (February 29th) does not come round during a test run.
    schedule: '0 3 29 2 *', prefix: 'nightly', destinationId, database: 'orders', databaseType: 'dbgamma', dbgammaId,
  });

  describe('destination', () => {
    it('answers the secret key to the admin but never writes it to the log in clear', async () => {
      const created = await berth.ok('destination.create', destinationInput('vault'));
      assert.equal(created.secretAccessKey, SECRET);
      assert.equal((await berth.ok('destination.one', { destinationId: created.destinationId })).secretAccessKey, SECRET);
      assert.ok(!(await berth.eventLog()).includes(SECRET));
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
      assert.ok(!(await berth.eventLog()).includes('rotated-key-42'));
    });

    it('answers NOT_FOUND naming destinationId for an unknown one, appending nothing', async () => {
      for (const [op, input] of [
        ['destination.one', { destinationId: 'nope' }], ['destination.remove', { destinationId: 'nope' }],
        ['destination.update', { ...destinationInput('x'), destinationId: 'nope' }],
      ] as const) await berth.refused(op, input, 404, 'destinationId');
    });

    it('removes an unused destination and answers it', async () => {
      const destinationId = await destination('gone');
      const removed = await berth.ok('destination.remove', { destinationId });
      assert.equal(removed.name, 'gone');
      assert.equal((await berth.call('destination.one', { destinationId })).status, 404);
    });

    it('testConnection reaches a real bucket, and answers 400 with the reason when the keys or endpoint are wrong', async () => {
      const s3 = await startS3(['reachable']);
      try {
        const fields = { name: 'probe', ...s3.destination('reachable') };
        assert.deepEqual(await berth.ok('destination.testConnection', fields), { ok: true, bucket: 'reachable' });
        const wrongSecret = await berth.refused('destination.testConnection', { ...fields, secretAccessKey: 'wrong-secret-77' }, 400, 'secretAccessKey');
        assert.match(wrongSecret.message, /SignatureDoesNotMatch/);
        assert.ok(!JSON.stringify(wrongSecret).includes('wrong-secret-77'));
        await berth.refused('destination.testConnection', { ...fields, bucket: 'missing' }, 400, 'bucket');
        const unreachable = await berth.refused('destination.testConnection', { ...fields, endpoint: 'http://127.0.0.1:1' }, 400, 'endpoint');
        assert.match(unreachable.message, /refused/);
        await berth.refused('destination.testConnection', { name: '' }, 400);
        await berth.refused('destination.testConnection', { ...fields, bucket: '' }, 400, 'bucket');
      } finally {
        await s3.stop();
      }
    });

    it('refuses an access key no request header can carry (spaces, control characters, non-ASCII), naming accessKey, on create, update and testConnection', async () => {
      const destinationId = await destination('keys');
      for (const accessKey of ['AKIA EXAMPLE', 'AKIA\r\nX-Injected: 1', 'AKIA\u0000', 'AKIAÉ']) {
        const refused = await berth.refused('destination.create', { ...destinationInput('bad key'), accessKey }, 400, 'accessKey');
        assert.match(refused.message, /accessKey must be letters, digits and signs of plain ASCII/);
        await berth.refused('destination.update', { ...destinationInput('keys'), destinationId, accessKey }, 400, 'accessKey');
        await berth.refused('destination.testConnection', { ...destinationInput('probe'), accessKey }, 400, 'accessKey');
      }
      assert.equal((await berth.ok('destination.one', { destinationId })).accessKey, 'AKIAEXAMPLE');
    });

    it('testConnection of an endpoint that takes the connection and never answers says so within its bound', async () => {
      const silent = createServer(() => {}).listen(0, '127.0.0.1');
      await once(silent, 'listening');
      try {
        const port = (silent.address() as AddressInfo).port;
        const started = Date.now();
        const refused = await berth.refused('destination.testConnection', {
          name: 'silent', endpoint: `http://127.0.0.1:${port}`, bucket: 'b', region: 'r', accessKey: 'a', secretAccessKey: 's',
        }, 400, 'endpoint');
        assert.match(refused.message, new RegExp(`did not answer within 10 s`));
        assert.ok(Date.now() - started < 20_000, `answered in ${Date.now() - started} ms`);
      } finally {
        silent.closeAllConnections();
        silent.close();
      }
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
      const { dbgammaId: _omitted, ...input } = backupInput('x', destinationId);
      await berth.refused('backup.create', input, 400, 'dbgammaId');
      await berth.refused('backup.create', { ...input, dbalphaId: 'a1' }, 400, 'dbgammaId');
    });

    it('answers NOT_FOUND naming the database or destination that does not exist', async () => {
      const dbgammaId = await database();
      const destinationId = await destination();
      await berth.refused('backup.create', backupInput('nope', destinationId), 404, 'dbgammaId');
      await berth.refused('backup.create', backupInput(dbgammaId, 'nope'), 404, 'destinationId');
    });

    it('refuses a schedule that is not a cron expression, on create and on update', async () => {
      const dbgammaId = await database();
      const destinationId = await destination();
      await berth.refused('backup.create', { ...backupInput(dbgammaId, destinationId), schedule: 'every night' }, 400, 'schedule');

      const { backupId } = await berth.ok('backup.create', backupInput(dbgammaId, destinationId));
      const update = await berth.call('backup.update', {
        backupId, schedule: '0 25 * * *', prefix: 'nightly', destinationId, database: 'orders',
      });
      assert.equal(update.status, 400);
      assert.deepEqual(pathsOf(update.body), ['schedule']);
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
      assert.deepEqual(pathsOf(missing.body), ['destinationId']);
    });

    it('refuses to remove a destination a backup uploads to', async () => {
      const destinationId = await destination('in-use');
      const { backupId } = await berth.ok('backup.create', backupInput(await database(), destinationId));
      await berth.refused('destination.remove', { destinationId }, 409, 'destinationId');
      await berth.ok('backup.remove', { backupId });
      assert.equal((await berth.ok('destination.remove', { destinationId })).destinationId, destinationId);
    });

    it('runs a manual backup only for its own engine, recording a failed run when the database is not running', async () => {
      const { backupId } = await berth.ok('backup.create', backupInput(await database(), await destination()));
      const run = await berth.ok('backup.manualBackupDbgamma', { backupId });
      assert.equal(run.status, 'error');
      assert.match(run.error, /not running/);
      assert.deepEqual((await berth.ok('backup.runs', { backupId })).map((r: { runId: string }) => r.runId), [run.runId]);
      await berth.refused('backup.manualBackupDbalpha', { backupId }, 400, 'backupId');
      await berth.refused('backup.manualBackupDbgamma', { backupId: 'nope' }, 404);
      await berth.refused('backup.runs', { backupId: 'nope' }, 404, 'backupId');
    });

    it('keeps keepLatest on create and update, and refuses one below 1', async () => {
      const destinationId = await destination();
      const created = await berth.ok('backup.create', { ...backupInput(await database(), destinationId), keepLatest: 3 });
      assert.equal(created.keepLatest, 3);
      const { backupId } = created;
      const updated = await berth.ok('backup.update', { backupId, schedule: '*/5 * * * * *', prefix: 'nightly', destinationId, database: 'orders', keepLatest: 7 });
      assert.equal(updated.keepLatest, 7);
      await berth.refused('backup.update', { backupId, schedule: '0 3 * * *', prefix: 'nightly', destinationId, database: 'orders', keepLatest: 0 }, 400, 'keepLatest');
      // Not left firing every five seconds for the tests after this one.
      await berth.ok('backup.remove', { backupId });
    });

    it('removes a backup, answers it, then answers NOT_FOUND', async () => {
      const { backupId } = await berth.ok('backup.create', backupInput(await database(), await destination()));
      const removed = await berth.ok('backup.remove', { backupId });
      assert.equal(removed.backupId, backupId);
      const gone = await berth.call('backup.one', { backupId });
      assert.equal(gone.status, 404);
      assert.deepEqual(pathsOf(gone.body), ['backupId']);
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
