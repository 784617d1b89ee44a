// What backup.create, update and restore check before anything runs: a backup's folder is its own
// (no second backup uploads into it on the same destination: they would prune each other), an odd
// prefix or a schedule that would not keep firing is refused, and a restore reads only the backup's
// own objects back into the database that was dumped. No engine is needed: all of it is decided first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';

describe('backup checks', () => {
  let berth: TestBerth;
  let projectId: string;
  // Short: a restore asked here is never run (no reactors), only recorded as asked.
  before(async () => {
    berth = await startBerth({ config: { actionWaitMs: 200 } });
    projectId = (await berth.ok('project.create', { name: 'folders' })).projectId;
  });
  after(() => berth.stop());

  const destination = async () => (await berth.ok('destination.create', {
    name: 'bucket', accessKey: 'AK', bucket: 'backups', region: 'us-east-1', endpoint: 'https://s3.example.com', secretAccessKey: 'SK-123456',
  })).destinationId as string;
  let databases = 0;
  const database = async () => (await berth.ok('dbgamma.create', {
    name: 'main', appName: `main-${++databases}`, projectId, ...databaseCredentials('dbgamma', { name: 'main' }),
  })).dbgammaId as string;
  /** A backup of `dumped` in a new database service whose main database is `main`. */
  const input = async (destinationId: string, prefix: string, dumped = 'app') => ({
    schedule: '0 3 29 2 *', prefix, destinationId, database: dumped, databaseType: 'dbgamma', dbgammaId: await database(),
  });

  it('refuses a second backup in the folder of one destination, naming prefix, also once the first moved away or went; another destination or folder is fine', async () => {
    const destinationId = await destination();
    const first = await berth.ok('backup.create', await input(destinationId, 'db'));
    await berth.refused('backup.create', await input(destinationId, 'db/'), 409, 'prefix');
    await berth.ok('backup.create', await input(destinationId, 'db/nested'));
    await berth.ok('backup.create', await input(await destination(), 'db'));
    // Moved elsewhere, or removed, a backup's folder stays its database's (its dumps are still
    // there): another database is refused it.
    const second = await berth.ok('backup.create', await input(destinationId, 'other'));
    const { prefix: _prefix, databaseType: _type, dbgammaId: _id, ...change } = await input(destinationId, 'db');
    await berth.refused('backup.update', { ...change, backupId: second.backupId, prefix: 'db' }, 409, 'prefix');
    await berth.ok('backup.update', { ...change, backupId: first.backupId, prefix: 'moved' });
    await berth.refused('backup.update', { ...change, backupId: second.backupId, prefix: 'db' }, 409, 'prefix');
    await berth.ok('backup.remove', { backupId: first.backupId });
    await berth.refused('backup.create', await input(destinationId, 'db'), 409, 'prefix');
  });

  it('refuses a prefix with an empty, "." or ".." folder, a leading slash, or edge spaces and control characters, naming prefix', async () => {
    const destinationId = await destination();
    for (const prefix of ['/x', '/', ' x', 'x ', '../x', 'a/../b', 'a//b', './a', 'a/.', 'a\tb', 'a\nb', 'x//']) {
      await berth.refused('backup.create', await input(destinationId, prefix), 400, 'prefix');
    }
    const { backupId } = await berth.ok('backup.create', await input(destinationId, 'nightly/'));
    const { databaseType: _type, dbgammaId: _id, ...change } = await input(destinationId, 'a//b');
    await berth.refused('backup.update', { ...change, backupId }, 400, 'prefix');
  });

  it('refuses a schedule that never fires, or fires only once, naming schedule', async () => {
    const destinationId = await destination();
    for (const schedule of ['0 0 30 2 *', '0 0 31 4 *', '0 0 3 * * * 2020', '2020-01-01T00:00:00Z', '2099-01-01T00:00:00Z']) {
      await berth.refused('backup.create', { ...await input(destinationId, 'never'), schedule }, 400, 'schedule');
    }
    const { backupId } = await berth.ok('backup.create', await input(destinationId, 'rare'));
    const { databaseType: _type, dbgammaId: _id, ...change } = await input(destinationId, 'rare');
    await berth.refused('backup.update', { ...change, backupId, schedule: '0 0 30 2 *' }, 400, 'schedule');
  });

  it('restores only a key the backup wrote, naming key', async () => {
    const { backupId } = await berth.ok('backup.create', await input(await destination(), 'db'));
    for (const key of ['db/nested/2026-01-01T03:00:00.000Z.dump.gz', 'db/2026-01-01T03:00:00.000Z.sql.gz', 'db/notes.dump.gz', 'dbx/2026-01-01T03:00:00.000Z.dump.gz']) {
      await berth.refused('backup.restore', { backupId, key }, 400, 'key');
    }
  });

  it('restores into the database that was dumped, not the main database of the service', async () => {
    // The service's main database is `main`; the backup dumps `reports`.
    const { backupId } = await berth.ok('backup.create', await input(await destination(), 'reports', 'reports'));
    const key = 'reports/2026-01-01T03:00:00.000Z.dump.gz';
    await berth.call('backup.restore', { backupId, key });
    const asked = (await berth.berth.infrastructure.eventStore.readAll(0, 100_000))
      .find((event) => event.type === 'BackupRunRequested' && (event.data as { backupId: string }).backupId === backupId);
    assert.equal((asked?.data as { database?: string } | undefined)?.database, 'reports');
  });
});
