// A service's start, stop and reload in its turn of the deployment queue, on the real engine: a
// deploy asked right after a stop runs after it (the bus may hand the deploy out first), and actions
// waiting behind one service's long build do not hold up another service's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ended } from '../support/deployments.ts';
import { eventually, runningTasks } from '../support/engine.ts';
import { gitApps } from '../support/git-apps.ts';

describe('start, stop and reload in the service\'s turn', () => {
  const apps = gitApps({ deployConcurrency: 4, taskStartTimeoutMs: 25_000, actionWaitMs: 3_000 });
  const { app, deploy, slowBuild } = apps;

  it('runs a deploy asked right after a stop once the stop is done: the service runs, with status done', async () => {
    const { applicationId, appName } = await app('stop-then-deploy');
    assert.equal((await ended(apps.berth, await deploy(applicationId))).status, 'done');
    const stopping = apps.berth.call('application.stop', { applicationId });
    await new Promise((resolve) => setImmediate(resolve));
    const later = await deploy(applicationId);
    await stopping;
    assert.equal((await ended(apps.berth, later)).status, 'done');
    const { eventStore } = apps.berth.berth.infrastructure;
    const events = (await eventStore.readStream(`application-${applicationId}`)).events;
    const asked = events.find((event) => event.type === 'ApplicationActionRequested')!;
    const queued = (await eventStore.readStream(`deployment-${later}`)).events;
    assert.ok(asked.position < queued[0]!.position, 'the deploy was asked before the stop: nothing to prove');
    const stopped = events.find((event) => event.type === 'ApplicationActionSucceeded');
    const started = queued.find((event) => event.type === 'DeploymentStarted')!;
    assert.ok(stopped && stopped.position < started.position, 'the deploy started before the stop was done, and the stop undid it');
    await eventually('the status to follow the deploy', async () => (await apps.berth.ok('application.one', { applicationId })).applicationStatus === 'done');
    assert.equal((await runningTasks(appName)).length, 1);
  });

  it('answers another service\'s start at once while 16 reloads wait behind one service\'s long build', async () => {
    const busy = await app('long-build');
    assert.equal((await ended(apps.berth, await deploy(busy.applicationId))).status, 'done');
    const other = await app('never-deployed');
    await apps.berth.ok('application.update', { applicationId: busy.applicationId, containerfile: slowBuild(60) });
    const building = await deploy(busy.applicationId);
    await apps.building(building);
    const reloads = Array.from({ length: 16 }, () => apps.berth.call('application.reload', { applicationId: busy.applicationId, appName: busy.appName }));
    // Each waits for the build, and answers 409 "still in progress" after BERTH_ACTION_WAIT_MS.
    for (const reload of await Promise.all(reloads)) assert.match(reload.body.message, /still in progress/);
    const answer = await apps.berth.call('application.start', { applicationId: other.applicationId });
    assert.equal(answer.status, 409);
    assert.match(answer.body.message, /could not start/, 'the start was held up behind the other service\'s build');
    await apps.berth.ok('application.delete', { applicationId: busy.applicationId });
  });
});
