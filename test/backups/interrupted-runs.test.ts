// A backup run left `running` by a Berth that stopped (or died) during it ends in `error`,
// reason "interrupted", when the reactors start again, as an interrupted deployment does; and a
// run under way when its reactors stop (or lose their lease to another process) is ended by them
// as interrupted, even against a destination that hangs, instead of running on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backupRunAggregate } from '@berth/shared/domain/backup/run';
import { execute } from '@berth/shared/runtime/execute';
import { startBerth, startBerthWithReactors } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { eventually } from '../support/engine.ts';
import { DATABASE_IMAGE, removeService } from '../support/database-services.ts';
import { startS3 } from '../support/s3.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';

test('a backup run that was running when Berth stopped ends in error, "interrupted", once the reactors start again', async () => {
  const first = await startBerth();
  const { projectId } = await first.ok('project.create', { name: 'data' });
  const { dbgammaId } = await first.ok('dbgamma.create', { name: 'orders', appName: 'orders', projectId, ...databaseCredentials('dbgamma') });
  const { destinationId } = await first.ok('destination.create', {
    name: 'bucket', accessKey: 'AKIAEXAMPLE', bucket: 'backups', region: 'us-east-1', endpoint: 'https://s3.example.com', secretAccessKey: 'secret-key',
  });
  const { backupId } = await first.ok('backup.create', {
    schedule: '0 3 29 2 *', prefix: 'nightly', destinationId, database: 'orders', databaseType: 'dbgamma', dbgammaId,
  });
  // A run as a reactors process starts it, whose process then goes away before its outcome.
  await execute(first.berth.infrastructure.eventStore, backupRunAggregate, 'r1', {
    type: 'StartBackupRun',
    data: { runId: 'r1', backupId, kind: 'backup', trigger: 'schedule', key: 'nightly/r1.dump.gz', databaseType: 'dbgamma', databaseId: dbgammaId, startedAt: new Date().toISOString() },
  }, { actorId: null, correlationId: 'test', causationId: null, occurredAt: new Date().toISOString() });
  await first.stop({ keepData: true });

  const again = await startBerthWithReactors({ dataDir: first.dataDir });
  try {
    const [run] = await eventually('the run to end', async () => {
      const runs = await again.ok('backup.runs', { backupId });
      return runs[0]?.status !== 'running' && runs;
    });
    assert.equal(run.status, 'error');
    assert.equal(run.error, 'interrupted');
    assert.match(run.log.at(-1), /interrupted: Berth stopped while it ran/);
  } finally {
    await again.stop();
  }
});

test('a backup under way when its reactors stop ends as interrupted, also while its destination hangs', { timeout: 300_000 }, async () => {
  const s3 = await startS3(['backups']);
  const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
  // A short action wait, so that the hung backup's call answers 409 while its run goes on.
  const berth = await startBerthWithReactors({ config: { actionWaitMs: 3000 } });
  let stopped = false;
  let appName = '';
  let backupId = '';
  try {
    try {
      const { projectId } = await berth.ok('project.create', { name: 'data' });
      const db = await berth.ok('dbgamma.create', {
        name: 'hung', appName: 'hung-upload', projectId, containerImage: DATABASE_IMAGE.dbgamma, ...databaseCredentials('dbgamma'),
      });
      appName = db.appName;
      // The deploy may outlast the short wait on a busy machine (409): it goes on, and is waited for here.
      const deploy = await berth.call('dbgamma.deploy', { dbgammaId: db.dbgammaId });
      assert.ok(deploy.status === 200 || deploy.status === 409, JSON.stringify(deploy.body));
      await eventually('the database to be deployed', async () =>
        (await berth.ok('dbgamma.one', { dbgammaId: db.dbgammaId })).applicationStatus === 'done', 120_000);
      const { destinationId } = await berth.ok('destination.create', { name: 'hangs', ...s3.destination('backups'), endpoint: `http://${proxy.address}` });
      ({ backupId } = await berth.ok('backup.create', {
        schedule: '0 3 29 2 *', prefix: 'hung', destinationId, database: 'app', databaseType: 'dbgamma', dbgammaId: db.dbgammaId,
      }));

      proxy.stall();
      const asked = await berth.call('backup.manualBackupDbgamma', { backupId });
      assert.equal(asked.status, 409, 'the run outlasts the wait: the upload hangs');
      assert.equal((await berth.ok('backup.runs', { backupId }))[0]?.status, 'running');

      const stopping = Date.now();
      stopped = true;
      await berth.stop({ keepData: true });
      assert.ok(Date.now() - stopping < 20_000, `stopped in ${Date.now() - stopping} ms, not held by the hung upload`);
    } finally {
      proxy.restore();
      if (appName) await removeService(appName);
    }
    // Read back without reactors: the stopping process itself recorded the run's end.
    const after = await startBerth({ dataDir: berth.dataDir });
    try {
      const [run] = await after.ok('backup.runs', { backupId });
      assert.equal(run.status, 'error');
      assert.equal(run.error, 'interrupted');
      assert.match(run.log.at(-1), /interrupted: the reactors stopped in this process while it ran/);
    } finally {
      await after.stop();
    }
  } finally {
    // Whatever failed above: nothing of this test stays open to keep its file's process alive.
    if (!stopped) await berth.stop();
    await Promise.all([proxy.stop(), s3.stop()]);
  }
});
