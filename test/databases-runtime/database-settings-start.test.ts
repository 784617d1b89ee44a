// A database's start runs it from its settings as saved (a command changed while it was stopped
// included). A start the engine cannot run fails with the engine's reason and leaves the database as
// it was: stopped, no task of it retried forever from the settings it could not run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { DATABASE_IMAGE, docker, removeService } from '../support/database-services.ts';

const inspected = async (name: string) => JSON.parse(await docker('service', 'inspect', name))[0].Spec;
const tasksWanted = async (name: string) =>
  (await docker('service', 'ps', '--filter', 'desired-state=running', '-q', name)).trim().split('\n').filter(Boolean).length;

describe('database settings taken by start', { timeout: 300_000 }, () => {
  let berth: TestBerth;
  const appNames: string[] = [];
  before(async () => { berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000, taskStartTimeoutMs: 30_000 } }); });
  after(async () => {
    for (const appName of appNames) await removeService(appName);
    await berth.stop();
  });

  it('fails a start the engine cannot run with its reason, and leaves the database stopped as it was', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'berth-test-ds-start' });
    const { dbepsilonId, appName } = await berth.ok('dbepsilon.create', {
      name: 'berth-test-ds-start', appName: 'berth-test-ds-start', projectId, containerImage: DATABASE_IMAGE.dbepsilon, databasePassword: 'Start-Pass-1',
    });
    appNames.push(appName);
    assert.equal((await berth.ok('dbepsilon.deploy', { dbepsilonId })).applicationStatus, 'done');
    assert.equal((await berth.ok('dbepsilon.stop', { dbepsilonId })).applicationStatus, 'idle');
    const stopped = await inspected(appName);

    await berth.ok('dbepsilon.update', { dbepsilonId, command: 'redis-server --no-such-option 1' });
    const answer = await berth.call('dbepsilon.start', { dbepsilonId });
    assert.equal(answer.status, 409, JSON.stringify(answer.body));
    assert.match(answer.body.message, /could not start: .*non-zero exit/);
    assert.equal((await berth.ok('dbepsilon.one', { dbepsilonId })).applicationStatus, 'idle');
    const after = await inspected(appName);
    assert.deepEqual(after.Mode, { Replicated: { Replicas: 0 } }, 'scaled back to none, not left retrying the command it could not run');
    assert.deepEqual(after.TaskTemplate.ContainerSpec.Args, stopped.TaskTemplate.ContainerSpec.Args, 'the spec it had when stopped');
    assert.equal(await tasksWanted(appName), 0);

    // The command fixed, the next start takes it.
    await berth.ok('dbepsilon.update', { dbepsilonId, command: 'redis-server --maxmemory 50mb' });
    assert.equal((await berth.ok('dbepsilon.start', { dbepsilonId })).applicationStatus, 'done');
    const started = await inspected(appName);
    assert.deepEqual(started.TaskTemplate.ContainerSpec.Args, ['redis-server', '--maxmemory', '50mb', '--requirepass', 'Start-Pass-1']);
    assert.deepEqual(started.Mode, { Replicated: { Replicas: 1 } });
  });
});
