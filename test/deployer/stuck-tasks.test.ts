// Failures the engine never gives up on: Berth fails the deployment within its bound, with the
// engine's reason, puts the service back as it was, and leaves other services alone.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { freePort } from '../support/http.ts';
import { TEST_IMAGE, engine, eventually, httpBody, runningTasks, removeDeployed } from '../support/engine.ts';
import { deploy, deployer, portOf, testApplication } from '../support/deploy-work.ts';

const BOUND_MS = 3000;
const d = deployer({ taskStartTimeoutMs: BOUND_MS });
/** For the deployments that should succeed: on a loaded machine, scheduling a task alone can take over BOUND_MS. */
const unhurried = deployer({ taskStartTimeoutMs: 60_000 });
const apps: string[] = [];
after(() => removeDeployed(apps));

const containerApp = () => {
  const app = testApplication({ sourceType: 'container', containerImage: TEST_IMAGE });
  apps.push(app.appName);
  return app;
};

test('a host port another service publishes fails the deployment in bounded time and removes what it created', async () => {
  const port = await freePort();
  const first = containerApp();
  unhurried.ports.set(first.applicationId, [portOf(first, port)]);
  assert.equal((await deploy(unhurried, first)).error, null);
  const [firstTask] = await runningTasks(first.appName);

  const second = containerApp();
  d.ports.set(second.applicationId, [portOf(second, port)]);
  const started = Date.now();
  const { error, log } = await deploy(d, second);
  assert.ok(Date.now() - started < BOUND_MS + 3000, 'failed within the bound');
  assert.match(error!.message, /did not run within 3000 ms: pending: .*port.* \(a host port it publishes is taken by another task on every node that could run it: free it, or publish another port\)$/i);
  assert.doesNotMatch(error!.message, /one task per node/, 'one replica: the port is simply taken');
  assert.ok(log.some((line) => /engine: pending/.test(line)), log.join('\n'));
  assert.equal(await engine.inspectService(second.appName), null);
  assert.deepEqual(await runningTasks(first.appName), [firstTask], 'the other service is untouched');
  assert.equal(await httpBody(port), 'berth-test httpd\n');
});

test('more replicas than nodes for a host-mode port fails saying so, and what to change', async () => {
  const port = await freePort();
  const app = { ...containerApp(), replicas: 2 };
  d.ports.set(app.applicationId, [portOf(app, port)]);
  const nodes = (await engine.listNodes()).filter((node) => node.availability === 'active' && node.state === 'ready').length;
  assert.equal(nodes, 1, 'a one-node swarm');
  const { error } = await deploy(d, app);
  assert.match(error!.message, new RegExp(`did not run within 3000 ms: pending: .*port.*; a host-mode published port \\(${port}\\) takes one task per node: `
    + '2 replicas need 2 nodes, and 1 can run tasks; lower replicas or publish in ingress mode$'));
  assert.equal(await engine.inspectService(app.appName), null, 'what it created is removed');
});

test('an image missing from the engine fails a rollback with the engine\'s reason once three tasks are rejected, well before the timeout; the previous version serves again', async () => {
  // The old task holds the host port while it stops, and on the proxy's network (every application's)
  // the engine takes about 2 s more to stop it: the new task is pending on the port that long, and
  // reaches the image's rejection only after it.
  const patient = deployer({ taskStartTimeoutMs: 60_000 });
  const port = await freePort();
  const app = containerApp();
  patient.ports.set(app.applicationId, [portOf(app, port)]);
  const good = await deploy(patient, app);
  assert.equal(good.error, null);
  const started = Date.now();
  const { error } = await deploy(patient, app, 'rollback', `berth/${app.appName}:deploy-gone`);
  assert.match(error!.message, /keep ending: 3 of them did, the last one rejected: .*No such image/i);
  // The engine retries a rejected task about every 5 s.
  assert.ok(Date.now() - started < 40_000, `failed after ${Date.now() - started} ms`);
  assert.equal((await engine.inspectService(app.appName))!.spec.TaskTemplate.ContainerSpec.Image, good.result!.image);
  assert.equal(await eventually('the previous version', () => httpBody(port)), 'berth-test httpd\n');
});

test('a cancelled deployment stops and leaves the service on its previous version', async () => {
  const port = await freePort();
  const app = containerApp();
  unhurried.ports.set(app.applicationId, [portOf(app, port)]);
  const good = await deploy(unhurried, app);
  const cancel = new AbortController();
  setTimeout(() => cancel.abort(new Error('cancelled by the test')), 300);
  const { error } = await deploy(unhurried, app, 'rollback', `berth/${app.appName}:deploy-gone`, cancel.signal);
  assert.match(error!.message, /cancelled by the test/);
  assert.equal((await engine.inspectService(app.appName))!.spec.TaskTemplate.ContainerSpec.Image, good.result!.image);
});
