// A stop of a job application whose job still runs stops the job's containers: the engine's removal
// of a job service (a job has no scale to set to 0) leaves them running on their own.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TEST_IMAGE, uniqueName, engine, eventually } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import type { Application } from '@berth/shared/domain/application/record';
import { SERVICE_LABEL } from '@berth/shared/ports/container-engine';

const d = deployer({ taskStartTimeoutMs: 20_000, taskSteadyMs: 500 });
const apps: Application[] = [];
after(async () => { for (const app of apps) await d.actions.remove(app).catch(() => {}); });

const runningContainers = async (name: string) =>
  (await engine.listContainers({ label: `${SERVICE_LABEL}=${name}` })).filter((container) => container.state === 'running');

test('a stopped job application runs no container of its job any more', async () => {
  const app = testApplication({ appName: uniqueName('berth-test-modes-stop'), sourceType: 'container', containerImage: TEST_IMAGE, modeOrch: { ReplicatedJob: {} }, command: 'sleep 300' });
  apps.push(app);
  const controller = new AbortController();
  // The deployment waits for the job to end: the test stops the service while the job runs, then lets the deployment go.
  const deployed = deploy(d, app, 'deploy', null, controller.signal);
  await eventually('the job to run', async () => (await runningContainers(app.appName)).length > 0, 30_000);
  await d.actions.stop(app);
  controller.abort(new Error('cancelled'));
  await deployed;
  assert.equal(await engine.inspectService(app.appName), null, 'the stop removed the job service');
  await eventually('the job containers to stop', async () => (await runningContainers(app.appName)).length === 0, 20_000);
});
