// A backup's run records are bounded, as a service's deployments are: the newest finished ones are
// kept (BERTH_KEEP_BACKUP_RUNS, 2 here), and every one goes with its backup, removed directly or
// with its database. The log keeps each run's history; `backup.runs` and the read model forget it.
// The runs here fail fast (their database is never deployed): a failed run is a finished one.
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { backupAggregate } from '@berth/shared/domain/backup/backup';
import { backupRunAggregate } from '@berth/shared/domain/backup/run';
import { streamName } from '@berth/shared/events/event';
import { execute } from '@berth/shared/runtime/execute';
import { processStateCache } from '@berth/shared/runtime/state-cache';
import { newId } from '@berth/shared/ids';
import { startBerth, startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { eventually } from '../support/engine.ts';

const KEEP = 2;

describe('backup run records', { timeout: 120_000 }, () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerthWithReactors({ config: { keepBackupRuns: KEEP, actionWaitMs: 30_000 } }); });
  after(() => berth.stop());

  /** A backup of a database that is never deployed, to a bucket that is never reached. */
  async function aBackup() {
    const { projectId } = await berth.ok('project.create', { name: 'runs' });
    const { dbgammaId } = await berth.ok('dbgamma.create', { name: 'runs', appName: `berth-test-runs-${newId().slice(0, 8)}`, projectId, ...databaseCredentials('dbgamma') });
    const { destinationId } = await berth.ok('destination.create', {
      name: 'bucket', accessKey: 'AKIAEXAMPLE', bucket: 'backups', region: 'us-east-1', endpoint: 'https://s3.example.com', secretAccessKey: 'secret-key',
    });
    const { backupId } = await berth.ok('backup.create', {
      schedule: '0 3 29 2 *', prefix: 'runs', destinationId, database: 'app', databaseType: 'dbgamma', dbgammaId,
    });
    return { projectId, dbgammaId, backupId };
  }

  /** Runs the backup `count` times, one after the other; answers the run ids, oldest first. */
  async function ranTimes(backupId: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const run = await berth.ok('backup.manualBackupDbgamma', { backupId });
      assert.notEqual(run.status, 'running');
      ids.push(run.runId);
    }
    return ids;
  }

  const rowsOf = async (backupId: string) =>
    (await berth.berth.infrastructure.readStore.find(backupRunAggregate.name, 'backupId', backupId)).map((doc) => String(doc.runId));

  // The states this process's writers share (the embedded mode's only writer): a run's start and
  // end reported beside them would leave them behind the log, as no reactor's report does.
  const memory = () => processStateCache(berth.berth.infrastructure);

  /** A run under way, as a reactors process records its start (its end is up to the test). */
  async function underWay(backupId: string, dbgammaId: string): Promise<string> {
    const runId = newId();
    const at = new Date().toISOString();
    await execute(berth.berth.infrastructure.eventStore, backupRunAggregate, runId, {
      type: 'StartBackupRun',
      data: { runId, backupId, kind: 'backup', trigger: 'manual', key: `runs/${at}.dump.gz`, databaseType: 'dbgamma', databaseId: dbgammaId, startedAt: at },
    }, { actorId: null, correlationId: 'test', causationId: null, occurredAt: at }, memory());
    return runId;
  }

  const end = (runId: string) => {
    const at = new Date().toISOString();
    return execute(berth.berth.infrastructure.eventStore, backupRunAggregate, runId, {
      type: 'FailBackupRun', data: { runId, finishedAt: at, size: null, log: [], error: 'ended by the test' },
    }, { actorId: null, correlationId: 'test', causationId: null, occurredAt: at }, memory());
  };

  it(`a backup keeps at most N run records, the newest (N = ${KEEP})`, async () => {
    const { backupId } = await aBackup();
    const ran = await ranTimes(backupId, 5);
    const kept = await eventually('the old runs to be pruned', async () => {
      const runs: Array<{ runId: string }> = await berth.ok('backup.runs', { backupId });
      return runs.length <= KEEP && runs;
    });
    assert.deepEqual(kept.map((run) => run.runId), ran.slice(-KEEP).reverse(), 'the newest, newest first');
    assert.deepEqual((await rowsOf(backupId)).sort(), ran.slice(-KEEP).sort(), 'the read model holds only those');
    // The log keeps the history of a pruned run.
    const { events } = await berth.berth.infrastructure.eventStore.readStream(streamName(backupRunAggregate.name, ran[0]!));
    assert.deepEqual(events.map((event) => event.type), ['BackupRunStarted', 'BackupRunFailed', 'BackupRunPruned']);
  });

  it('a run under way is not pruned, and counts once it ended', async () => {
    const { backupId, dbgammaId } = await aBackup();
    const going = await underWay(backupId, dbgammaId);
    const ran = await ranTimes(backupId, 3);
    await eventually('the old runs to be pruned', async () => (await rowsOf(backupId)).length === KEEP + 1);
    assert.deepEqual((await rowsOf(backupId)).sort(), [going, ...ran.slice(-KEEP)].sort());
    await end(going);
    await eventually('the oldest to end to be pruned', async () => (await rowsOf(backupId)).length === KEEP);
    assert.deepEqual((await rowsOf(backupId)).sort(), [going, ran.at(-1)!].sort(), 'the two that ended last');
  });

  it('removing a backup removes its run records from backup.runs and the read models', async () => {
    const { backupId, dbgammaId } = await aBackup();
    await ranTimes(backupId, 2);
    const going = await underWay(backupId, dbgammaId);
    await berth.ok('backup.remove', { backupId });
    await berth.refused('backup.runs', { backupId }, 404, 'backupId');
    // The finished ones go with the removal; the one under way once it ends.
    await eventually('the finished runs to go with their backup', async () => (await rowsOf(backupId)).length === 1);
    assert.deepEqual(await rowsOf(backupId), [going]);
    await end(going);
    await eventually('the run that ended after its backup went to be pruned', async () => (await rowsOf(backupId)).length === 0);
  });

  it('removing a database removes the run records of its backups', async () => {
    const { backupId, dbgammaId } = await aBackup();
    await ranTimes(backupId, 2);
    await berth.ok('dbgamma.remove', { dbgammaId });
    await berth.refused('backup.runs', { backupId }, 404, 'backupId');
    await eventually('the runs to go with their database', async () => (await rowsOf(backupId)).length === 0);
  });

  it('removing a project removes the run records of its databases\' backups', async () => {
    const { projectId, backupId } = await aBackup();
    await ranTimes(backupId, 2);
    await berth.ok('project.remove', { projectId });
    await eventually('the runs to go with their project', async () => (await rowsOf(backupId)).length === 0);
  });
});

test('the run records left by a Berth that did not prune them are pruned when the reactors start', async () => {
  // No reactors: nothing prunes, as before run records were bounded. The relay passes the events on
  // (to no one), so the next start's reactors are not handed these runs' ends again.
  const first = await startBerth({ config: { roles: ['projections', 'relay'] } });
  const infra = first.berth.infrastructure;
  const cause = () => ({ actorId: null, correlationId: 'test', causationId: null, occurredAt: new Date().toISOString() });
  const { projectId } = await first.ok('project.create', { name: 'old' });
  const { dbgammaId } = await first.ok('dbgamma.create', { name: 'old', appName: `berth-test-old-${newId().slice(0, 8)}`, projectId, ...databaseCredentials('dbgamma') });
  const { destinationId } = await first.ok('destination.create', {
    name: 'bucket', accessKey: 'AKIAEXAMPLE', bucket: 'backups', region: 'us-east-1', endpoint: 'https://s3.example.com', secretAccessKey: 'secret-key',
  });
  const backupOf = async (prefix: string) => (await first.ok('backup.create', {
    schedule: '0 3 29 2 *', prefix, destinationId, database: 'app', databaseType: 'dbgamma', dbgammaId,
  })).backupId as string;
  const [kept, removed] = [await backupOf('kept'), await backupOf('removed')];
  const ran: Record<string, string[]> = { [kept]: [], [removed]: [] };
  for (const backupId of [kept, removed]) {
    for (let i = 0; i < 3; i++) {
      const runId = newId();
      const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
      await execute(infra.eventStore, backupRunAggregate, runId, {
        type: 'StartBackupRun', data: { runId, backupId, kind: 'backup', trigger: 'schedule', key: `k/${at}.dump.gz`, databaseType: 'dbgamma', databaseId: dbgammaId, startedAt: at },
      }, cause());
      await execute(infra.eventStore, backupRunAggregate, runId, { type: 'FailBackupRun', data: { runId, finishedAt: at, size: null, log: [], error: 'x' } }, cause());
      ran[backupId]!.push(runId);
    }
  }
  // Removed as it was before its runs went with it.
  await execute(infra.eventStore, backupAggregate, removed, { type: 'RemoveBackup', data: { backupId: removed } }, cause());
  await first.stop({ keepData: true });

  const again = await startBerthWithReactors({ dataDir: first.dataDir, config: { keepBackupRuns: KEEP } });
  try {
    const rowsOf = async (backupId: string) =>
      (await again.berth.infrastructure.readStore.find(backupRunAggregate.name, 'backupId', backupId)).map((doc) => String(doc.runId)).sort();
    await eventually('the left-over runs to be pruned', async () => (await rowsOf(removed)).length === 0 && (await rowsOf(kept)).length === KEEP);
    assert.deepEqual(await rowsOf(kept), ran[kept]!.slice(-KEEP).sort());
  } finally {
    await again.stop();
  }
});
