// A deploy succeeds only when its tasks keep running: a command that exits, at once or a little
// later, or a failing health check, fails the deployment with the engine's reason, and the service
// goes back to the version it had.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { freePort } from '../support/http.ts';
import { TEST_IMAGE, engine, eventually, httpBody, removeDeployed } from '../support/engine.ts';
import { deploy, deployer, portOf, testApplication } from '../support/deploy-work.ts';
import type { Application } from '@berth/shared/domain/application/record';

const d = deployer({ taskStartTimeoutMs: 30_000, taskSteadyMs: 3000 });
const apps: string[] = [];
after(() => removeDeployed(apps));

/** A deployed application serving on a port of its own, and a second deploy of it changed by `change`. */
async function redeployed(change: Partial<Application>) {
  const port = await freePort();
  const app = testApplication({ sourceType: 'container', containerImage: TEST_IMAGE });
  apps.push(app.appName);
  d.ports.set(app.applicationId, [portOf(app, port)]);
  const good = await deploy(d, app);
  assert.equal(good.error, null);
  const started = Date.now();
  const changed = await deploy(d, { ...app, ...change });
  return { app, port, good, changed, tookMs: Date.now() - started };
}

test('a deployment whose command exits fails with the exit, and the previous version serves again', async () => {
  const { app, port, good, changed, tookMs } = await redeployed({ command: 'echo boom; exit 3' });
  assert.match(changed.error?.message ?? 'done', /keep ending: 3 of them did, the last one failed: task: non-zero exit \(3\)/);
  assert.ok(tookMs < 30_000, `it gave up before the bound (${tookMs} ms)`);
  const spec = (await engine.inspectService(app.appName))!.spec;
  assert.equal(spec.TaskTemplate.ContainerSpec.Image, good.result!.image);
  assert.equal(spec.TaskTemplate.ContainerSpec.Command, undefined, 'the command of the failed deploy is gone');
  assert.equal(await eventually('the previous version', () => httpBody(port)), 'berth-test httpd\n');
});

test('a command that runs a moment before it exits fails the deployment too', async () => {
  const { changed } = await redeployed({ command: 'sleep 1; exit 4' });
  assert.match(changed.error?.message ?? 'done', /non-zero exit \(4\)/);
});

test('a command that ends without an error is not a running service', async () => {
  const { changed } = await redeployed({ command: 'exit 0' });
  assert.match(changed.error?.message ?? 'done', /keep ending: .*complete: its command exited/);
});

test('a health check that never passes fails the deployment', async () => {
  const second = 1_000_000_000;
  const { changed } = await redeployed({
    healthCheckOrch: { Test: ['CMD', '/bin/sh', '-c', 'exit 1'], Interval: second, Timeout: second, Retries: 1 },
  });
  assert.notEqual(changed.error, null, 'it does not end done');
});
