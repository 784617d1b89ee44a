// Issue test 1 on the work functions: an application from a container image, deployed, stopped,
// started, reloaded and removed on the real engine.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { freePort } from '../support/http.ts';
import { TEST_IMAGE, engine, eventually, httpBody, runningTasks } from '../support/engine.ts';
import { deploy, deployer, portOf, testApplication } from '../support/deploy-work.ts';

const d = deployer();
const apps: string[] = [];
after(async () => { for (const name of apps) await engine.removeService(name); });

test('an image deploys, answers on its published port, stops, starts, reloads and is removed', async () => {
  const app = testApplication({ sourceType: 'container', containerImage: TEST_IMAGE, env: 'GREETING="hello there"\n# a comment\nMODE=test' });
  apps.push(app.appName);
  const port = await freePort();
  d.ports.set(app.applicationId, [portOf(app, port)]);

  const { result, error, log } = await deploy(d, app);
  assert.equal(error, null, log.join('\n'));
  assert.match(result!.image, new RegExp(`^berth/${app.appName}:deploy-`));
  assert.equal(await eventually('an answer', () => httpBody(port)), 'berth-test httpd\n');
  const spec = (await engine.inspectService(app.appName))!.spec;
  assert.deepEqual(spec.TaskTemplate.ContainerSpec.Env, ['GREETING=hello there', 'MODE=test']);

  await d.actions.stop(app);
  assert.deepEqual(await runningTasks(app.appName), []);
  assert.equal(await httpBody(port), null);

  await d.actions.start(app);
  const [before] = await runningTasks(app.appName);
  assert.equal(await eventually('an answer after start', () => httpBody(port)), 'berth-test httpd\n');

  await d.actions.reload(app);
  const [reloaded] = await runningTasks(app.appName);
  assert.ok(reloaded && reloaded !== before, 'reload runs a new task');
  assert.equal(await eventually('an answer after reload', () => httpBody(port)), 'berth-test httpd\n');

  await d.actions.remove(app);
  assert.equal(await engine.inspectService(app.appName), null);
  assert.deepEqual(await engine.imageTags(`berth/${app.appName}`), []);
});

test('an image that exists nowhere fails the deployment with the pull error and creates no service', async () => {
  const app = testApplication({ sourceType: 'container', containerImage: 'berth-test/none-such:1' });
  const { error, log } = await deploy(d, app);
  assert.match(error!.message, /berth-test\/none-such:1 could not be pulled/);
  assert.ok(log.some((line) => line.includes('Pulling berth-test/none-such:1')));
  assert.equal(await engine.inspectService(app.appName), null);
});

test('a malformed env line fails the deployment naming the line, without its value', async () => {
  const app = testApplication({ sourceType: 'container', containerImage: TEST_IMAGE, env: 'OK=1\nthis is not a pair s3cret' });
  const { error } = await deploy(d, app);
  assert.match(error!.message, /env line 2 is not KEY=value/);
  assert.doesNotMatch(error!.message, /s3cret/);
  assert.equal(await engine.inspectService(app.appName), null);
});
