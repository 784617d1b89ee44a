// Stop and start for every mode: a replicated service is scaled to 0 and back to its count (one
// count, as a deploy reads it); a global or job service has no scale: stop removes it and start
// brings it back from the record.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TEST_IMAGE, uniqueName, engine, runningTasks } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import type { Application } from '@berth/shared/domain/application/record';

const d = deployer({ taskStartTimeoutMs: 10_000, taskSteadyMs: 500 });
const apps: Application[] = [];
// Its own removal: a job's exited containers stay until Berth removes them.
after(async () => { for (const app of apps) await d.actions.remove(app).catch(() => {}); });

const deployed = async (fields: Partial<Application>) => {
  const app = testApplication({ appName: uniqueName('berth-test-fm'), sourceType: 'container', containerImage: TEST_IMAGE, ...fields });
  apps.push(app);
  const { error, log } = await deploy(d, app);
  assert.equal(error, null, log.join('\n'));
  return app;
};

test('a global application stops (no task runs) and starts again', async () => {
  const app = await deployed({ modeOrch: { Global: {} } });
  await d.actions.stop(app);
  assert.deepEqual(await runningTasks(app.appName), []);
  await d.actions.start(app);
  assert.equal((await runningTasks(app.appName)).length, 1);
  assert.ok('Global' in ((await engine.inspectService(app.appName))!.spec.Mode ?? {}));
});

test('a job application stops and starts (its job runs again)', async () => {
  const app = await deployed({ modeOrch: { ReplicatedJob: {} }, command: 'echo ran' });
  await d.actions.stop(app);
  assert.equal(await engine.inspectService(app.appName), null);
  await d.actions.start(app);
  assert.ok('ReplicatedJob' in ((await engine.inspectService(app.appName))!.spec.Mode ?? {}));
});

test('start after stop runs the replicas the mode asks for', async () => {
  const app = await deployed({ modeOrch: { Replicated: { Replicas: 3 } } });
  assert.equal((await runningTasks(app.appName)).length, 3);
  await d.actions.stop(app);
  await d.actions.start(app);
  assert.equal((await runningTasks(app.appName)).length, 3);
});
