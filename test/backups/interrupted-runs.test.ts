// A backup run left `running` by a Berth that stopped (or died) during it ends in `error`,
// reason "interrupted", when the reactors start again, as an interrupted deployment does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backupRunAggregate } from '@berth/shared/domain/backup/run';
import { execute } from '@berth/shared/runtime/execute';
import { startBerth, startBerthWithReactors } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { eventually } from '../support/engine.ts';

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
