// A job's deployment cancelled while its task runs stops that task, as a cancel of a replicated
// service's deployment stops what it started: the engine is not left running the cancelled job.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TEST_IMAGE, uniqueName, engine, eventually } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import type { Application } from '@berth/shared/domain/application/record';
import { SERVICE_LABEL } from '@berth/shared/ports/container-engine';

const d = deployer({ taskStartTimeoutMs: 20_000, taskSteadyMs: 500 });
const apps: Application[] = [];
// Its own removal: a job's exited containers stay until Berth removes them.
after(async () => { for (const app of apps) await d.actions.remove(app).catch(() => {}); });

const jobApp = (fields: Partial<Application>) => {
  const app = testApplication({ appName: uniqueName('berth-test-modes-job'), sourceType: 'container', containerImage: TEST_IMAGE, modeOrch: { ReplicatedJob: {} }, ...fields });
  apps.push(app);
  return app;
};

/** The service's job tasks that run now (to complete, not to keep running). */
const jobTasks = async (name: string) => (await engine.listTasks(name)).filter((task) => task.state === 'running' && task.desiredState === 'complete');

/** The service's containers that run now, whether or not the engine still has the service: a removed job's may run on. */
const running = async (name: string) => (await engine.listContainers({ label: `${SERVICE_LABEL}=${name}` })).filter((container) => container.state === 'running');

/** Deploys `app`, cancels the deployment once its task runs, and answers the deployment's outcome. */
async function cancelWhileItRuns(app: Application) {
  const controller = new AbortController();
  const deployed = deploy(d, app, 'deploy', null, controller.signal);
  await eventually('the job task to run', async () => (await jobTasks(app.appName)).length > 0, 30_000);
  controller.abort(new Error('cancelled'));
  return deployed;
}

test('a cancelled job deployment stops its running task when the service was a job before', async () => {
  const app = jobApp({ command: 'echo first' });
  assert.equal((await deploy(d, app)).error, null);
  const { error, log } = await cancelWhileItRuns({ ...app, command: 'sleep 300' });
  assert.notEqual(error, null);
  await eventually('the cancelled job task to stop', async () => (await running(app.appName)).length === 0, 20_000)
    .catch((failure: Error) => { throw new Error(`${failure.message}\n${log.join('\n')}`); });
});

test('a cancelled first job deployment leaves nothing running', async () => {
  const app = jobApp({ command: 'sleep 300' });
  const { error, log } = await cancelWhileItRuns(app);
  assert.notEqual(error, null);
  assert.equal(await engine.inspectService(app.appName), null, 'the service it created is removed');
  await eventually('the cancelled job task to stop', async () => (await running(app.appName)).length === 0, 20_000)
    .catch((failure: Error) => { throw new Error(`${failure.message}\n${log.join('\n')}`); });
});

test('a cancelled job deployment of a replicated service brings the replicated service back', async () => {
  const app = jobApp({ modeOrch: null, command: null });
  assert.equal((await deploy(d, app)).error, null);
  const { error, log } = await cancelWhileItRuns({ ...app, modeOrch: { ReplicatedJob: {} }, command: 'sleep 300' });
  assert.notEqual(error, null);
  const modeOf = async () => Object.keys((await d.deps.engine.inspectService(app.appName))?.spec.Mode ?? {})[0];
  await eventually('the replicated service to run again', async () => (await modeOf()) === 'Replicated' && (await running(app.appName)).length === 1, 30_000)
    .catch((failure: Error) => { throw new Error(`${failure.message}\n${log.join('\n')}`); });
});
