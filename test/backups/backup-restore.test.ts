// For each kind that runs here: create → run → write through the external port with the engine's
// real client → manual backup → the object is in the bucket → restore into a fresh database of the
// same kind → the data is there. (The document kind cannot run here: see the profile tests.)
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { buffer } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import { openS3Storage } from '@berth/shared/adapters/s3/object-storage';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { client, DATABASE_IMAGE, freePort, removeService } from '../support/database-services.ts';
import { startS3, type TestS3 } from '../support/s3.ts';

type Kind = 'dbgamma' | 'dbalpha' | 'dbepsilon';
const PASSWORD = 'Restore-Pass-7731';

/** Writes a row (or key) through the port, and reads it back. */
const CLIENTS: Record<Kind, { write: string; read: string; expect: RegExp }> = {
  dbgamma: {
    write: 'PGPASSWORD="$PW" psql -qtA -h 127.0.0.1 -p "$PORT" -U app -d app -c "CREATE TABLE orders (id int, item text); INSERT INTO orders VALUES (1, \'anchor\');"',
    read: 'PGPASSWORD="$PW" psql -qtA -h 127.0.0.1 -p "$PORT" -U app -d app -c "SELECT item FROM orders WHERE id = 1"',
    expect: /^anchor$/m,
  },
  dbalpha: {
    write: 'MYSQL_PWD="$PW" mariadb -h127.0.0.1 -P"$PORT" -uapp app -e "CREATE TABLE orders (id int, item text); INSERT INTO orders VALUES (1, \'anchor\');"',
    read: 'MYSQL_PWD="$PW" mariadb -N -h127.0.0.1 -P"$PORT" -uapp app -e "SELECT item FROM orders WHERE id = 1"',
    expect: /^anchor$/m,
  },
  dbepsilon: {
    write: 'REDISCLI_AUTH="$PW" redis-cli -h 127.0.0.1 -p "$PORT" SET order:1 anchor',
    read: 'REDISCLI_AUTH="$PW" redis-cli -h 127.0.0.1 -p "$PORT" GET order:1',
    expect: /^anchor$/m,
  },
};

/** Where a dump of `kind` is cut: within its rows (a SQL dump's first INSERT, a custom-format archive's last bytes), else half way. */
const cutAt = (kind: Kind, dump: Buffer) => {
  if (kind === 'dbalpha') return dump.indexOf('INSERT INTO');
  return kind === 'dbgamma' ? dump.length - 8 : Math.floor(dump.length / 2);
};

describe('backup and restore of running databases', { timeout: 600_000 }, () => {
  let berth: TestBerth;
  let s3: TestS3;
  let projectId: string;
  let destinationId: string;
  const services: string[] = [];
  before(async () => {
    // With the reactors: backups and restores are theirs to run.
    [berth, s3] = await Promise.all([startBerthWithReactors({ config: { actionWaitMs: 300_000 } }), startS3(['backups'])]);
    projectId = (await berth.ok('project.create', { name: 'restore' })).projectId;
    destinationId = (await berth.ok('destination.create', { name: 'local', ...s3.destination('backups') })).destinationId;
  });
  after(async () => {
    await Promise.all(services.map(removeService));
    await Promise.all([berth.stop(), s3.stop()]);
  });

  /** A database of that kind, running, published on a free port; its main database is `app` unless named. */
  async function database(kind: Kind, name: string, databaseName = 'app') {
    const created = await berth.ok(`${kind}.create`, {
      name, appName: name, projectId, containerImage: DATABASE_IMAGE[kind], ...databaseCredentials(kind, { password: PASSWORD, name: databaseName }),
    });
    const id = created[`${kind}Id`] as string;
    const port = await freePort();
    const record = await berth.ok(`${kind}.saveExternalPort`, { [`${kind}Id`]: id, externalPort: port });
    services.push(record.appName);
    assert.equal((await berth.ok(`${kind}.deploy`, { [`${kind}Id`]: id })).applicationStatus, 'done');
    return { id, port, appName: record.appName as string };
  }

  for (const kind of ['dbgamma', 'dbalpha', 'dbepsilon'] as const) {
    it(`${kind}: a manual backup uploads a dump that restores into a fresh database`, async () => {
      const [source, target] = await Promise.all([database(kind, `${kind}-src`), database(kind, `${kind}-dst`)]);
      const use = (port: number) => ({ PW: PASSWORD, PORT: String(port) });
      await client(kind, CLIENTS[kind].write, use(source.port));

      const { backupId } = await berth.ok('backup.create', {
        schedule: '0 3 29 2 *', prefix: `${kind}/nightly`, destinationId, database: 'app', databaseType: kind, [`${kind}Id`]: source.id,
      });
      const run = await berth.ok(`backup.manualBackup${kind.charAt(0).toUpperCase()}${kind.slice(1)}`, { backupId });
      assert.equal(run.status, 'done', run.error);
      assert.match(run.key, new RegExp(`^${kind}/nightly/\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\.\\w+\\.gz$`));
      assert.ok(run.size > 0);

      const storage = openS3Storage(s3.destination('backups'));
      assert.deepEqual((await storage.list(`${kind}/nightly/`)).map((o) => o.key), [run.key]);
      const dump = gunzipSync(await buffer(await storage.get(run.key)));
      assert.ok(dump.length > 0, 'the object holds a dump');

      const restored = await berth.ok('backup.restore', { backupId, [`${kind}Id`]: target.id });
      assert.equal(restored.status, 'done', restored.error);
      assert.equal(restored.kind, 'restore');
      assert.equal(restored.key, run.key);
      assert.match(await client(kind, CLIENTS[kind].read, use(target.port)), CLIENTS[kind].expect);

      const runs = await berth.ok('backup.runs', { backupId });
      assert.deepEqual(runs.map((r: { kind: string }) => r.kind), ['restore', 'backup']);
      // (s3rver's one secret key equals its access key id, which is not a secret: only the password is looked for.)
      assert.ok(!(await berth.eventLog()).includes(PASSWORD), 'no password in the log');
      assert.ok(!JSON.stringify(runs).includes(PASSWORD), 'no password in a run record');
    });
  }

  for (const kind of ['dbgamma', 'dbalpha', 'dbepsilon'] as const) {
    it(`${kind}: a restore of a dump cut short (Berth stopped, the stream broken) leaves the database as it was`, async () => {
      // Before, the restore dropped the data and then found the dump's end missing.
      const db = await database(kind, `${kind}-cut`);
      const use = { PW: PASSWORD, PORT: String(db.port) };
      await client(kind, CLIENTS[kind].write, use);
      const { backupId } = await berth.ok('backup.create', {
        schedule: '0 3 29 2 *', prefix: `${kind}/cut`, destinationId, database: 'app', databaseType: kind, [`${kind}Id`]: db.id,
      });
      const run = await berth.ok(`backup.manualBackup${kind.charAt(0).toUpperCase()}${kind.slice(1)}`, { backupId });
      assert.equal(run.status, 'done', run.error);
      const storage = openS3Storage(s3.destination('backups'));
      const dump = gunzipSync(await buffer(await storage.get(run.key)));
      // Ended within its rows, as a stream broken there would leave it.
      const cut = run.key.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/, '2000-01-01T00:00:00.000Z');
      await storage.put(cut, Readable.from([gzipSync(dump.subarray(0, cutAt(kind, dump)))]));

      const restored = await berth.ok('backup.restore', { backupId, key: cut });
      assert.equal(restored.status, 'error');
      assert.match(restored.error, /cut short or damaged, and nothing was restored|unexpected end of file|could not read from input file/);
      assert.match(await client(kind, CLIENTS[kind].read, use), CLIENTS[kind].expect);
    });
  }

  it('restores the newest successful run as it is when the restore runs, into another service\'s main database of its own name', async () => {
    const [source, target] = await Promise.all([database('dbgamma', 'latest-src'), database('dbgamma', 'latest-dst', 'other')]);
    await client('dbgamma', CLIENTS.dbgamma.write, { PW: PASSWORD, PORT: String(source.port) });
    const { backupId } = await berth.ok('backup.create', {
      schedule: '0 3 29 2 *', prefix: 'latest', destinationId, database: 'app', databaseType: 'dbgamma', dbgammaId: source.id, keepLatest: 1,
    });
    const first = await berth.ok('backup.manualBackupDbgamma', { backupId });
    // A second backup asked before the restore runs first, and prunes the first one's object.
    const second = berth.ok('backup.manualBackupDbgamma', { backupId });
    const restored = await berth.ok('backup.restore', { backupId, dbgammaId: target.id });
    assert.equal(restored.status, 'done', restored.error);
    assert.equal(restored.key, (await second).key);
    assert.notEqual(restored.key, first.key);
    const read = 'PGPASSWORD="$PW" psql -qtA -h 127.0.0.1 -p "$PORT" -U other -d other -c "SELECT item FROM orders WHERE id = 1"';
    assert.match(await client('dbgamma', read, { PW: PASSWORD, PORT: String(target.port) }), /^anchor$/m);
  });

  it('takes a database name that starts with a dash as a name, not as an option of the dump tool', async () => {
    // Read as an option, `--version` made the dump tool print its version and succeed: a backup of nothing.
    const source = await database('dbalpha', 'dbalpha-dash');
    const { backupId } = await berth.ok('backup.create', {
      schedule: '0 3 29 2 *', prefix: 'dash', destinationId, database: '--version', databaseType: 'dbalpha', dbalphaId: source.id,
    });
    const run = await berth.ok('backup.manualBackupDbalpha', { backupId });
    assert.equal(run.status, 'error');
    assert.match(run.error, /Unknown database '--version'/);
  });

  it('refuses a restore into a database of another kind, naming the field, appending nothing', async () => {
    const created = await berth.ok('dbgamma.create', { name: 'pg-other', appName: 'pg-other', projectId, ...databaseCredentials('dbgamma') });
    const { backupId } = await berth.ok('backup.create', {
      schedule: '0 3 29 2 *', prefix: 'other', destinationId, database: 'app', databaseType: 'dbgamma', dbgammaId: created.dbgammaId,
    });
    await berth.refused('backup.restore', { backupId, dbalphaId: 'x' }, 400, 'dbalphaId');
    await berth.refused('backup.restore', { backupId }, 400, 'key');
    await berth.refused('backup.restore', { backupId, key: 'elsewhere/x.dump.gz' }, 400, 'key');
  });

  it('records a failed run, with the reason, for a database that is not running', async () => {
    const created = await berth.ok('dbgamma.create', { name: 'pg-stopped', appName: 'pg-stopped', projectId, ...databaseCredentials('dbgamma', { password: PASSWORD }) });
    const { backupId } = await berth.ok('backup.create', {
      schedule: '0 3 29 2 *', prefix: 'stopped', destinationId, database: 'app', databaseType: 'dbgamma', dbgammaId: created.dbgammaId,
    });
    const run = await berth.ok('backup.manualBackupDbgamma', { backupId });
    assert.equal(run.status, 'error');
    assert.match(run.error, /not running/);
    assert.deepEqual(await openS3Storage(s3.destination('backups')).list('stopped/'), []);
  });
});
