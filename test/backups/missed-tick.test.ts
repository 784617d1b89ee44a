// A tick due while Berth was down runs once when the reactors start again, recorded as that tick's
// scheduled run; a backup created after its latest tick is not run at start.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backupAggregate } from '@berth/shared/domain/backup/backup';
import { latestTickBefore } from '@berth/shared/domain/backup/schedule';
import { execute } from '@berth/shared/runtime/execute';
import { startBerth, startBerthWithReactors } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { eventually } from '../support/engine.ts';

const HOURLY = '0 * * * *';

test('a backup whose latest tick went by while Berth was down runs that tick once at start; one created since does not', { timeout: 120_000 }, async () => {
  const first = await startBerth();
  const { projectId } = await first.ok('project.create', { name: 'missed' });
  const { dbgammaId } = await first.ok('dbgamma.create', { name: 'missed', appName: 'berth-test-missed-tick', projectId, ...databaseCredentials('dbgamma') });
  const { destinationId } = await first.ok('destination.create', {
    name: 'bucket', accessKey: 'AKIAEXAMPLE', bucket: 'backups', region: 'us-east-1', endpoint: 'http://127.0.0.1:9', secretAccessKey: 'secret-key',
  });
  // Created two hours ago, as a Berth down since then would have left it.
  const longAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
  const backupId = `missed${Date.now()}`;
  await execute(first.berth.infrastructure.eventStore, backupAggregate, backupId, {
    type: 'CreateBackup',
    data: {
      backupId, schedule: HOURLY, enabled: true, prefix: 'missed', destinationId, database: 'app', databaseType: 'dbgamma',
      dbalphaId: null, dbbetaId: null, dbgammaId, dbdeltaId: null, dbepsilonId: null, createdAt: longAgo,
    },
  }, { actorId: null, correlationId: 'test', causationId: null, occurredAt: longAgo });
  const fresh = await first.ok('backup.create', { schedule: HOURLY, prefix: 'fresh', destinationId, database: 'app', databaseType: 'dbgamma', dbgammaId });
  await first.stop({ keepData: true });

  const again = await startBerthWithReactors({ dataDir: first.dataDir });
  try {
    const tick = latestTickBefore(HOURLY, new Date())!;
    const [run] = await eventually('the missed tick to run', async () => {
      const runs = await again.ok('backup.runs', { backupId });
      return runs.length > 0 && runs[0].status !== 'running' && runs;
    }, 30_000);
    assert.equal(run.trigger, 'schedule');
    assert.equal(run.runId, `${backupId}.${tick.getTime()}`, 'recorded as the run of the latest tick due');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.equal((await again.ok('backup.runs', { backupId })).length, 1, 'one run, not one per missed tick');
    assert.deepEqual(await again.ok('backup.runs', { backupId: fresh.backupId }), [], 'a backup created after its latest tick ran at start');
  } finally {
    await again.stop();
  }
});
