// A mode change whose new service the engine refuses to create (the old one already stopped and
// removed to make way for it) fails the deployment and leaves the previous service running again.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TEST_IMAGE, uniqueName, engine, eventually, httpBody } from '../support/engine.ts';
import { deploy, deployer, portOf, testApplication } from '../support/deploy-work.ts';
import { freePort } from '../support/http.ts';
import type { Application } from '@berth/shared/domain/application/record';

const d = deployer({ taskStartTimeoutMs: 20_000, taskSteadyMs: 1000 });
const apps: Application[] = [];
after(async () => { for (const app of apps) await d.actions.remove(app).catch(() => {}); });

test('a mode change the engine refuses leaves the previous service serving', async () => {
  const port = await freePort();
  const app = testApplication({ appName: uniqueName('berth-test-modes-refused'), sourceType: 'container', containerImage: TEST_IMAGE });
  apps.push(app);
  d.ports.set(app.applicationId, [portOf(app, port)]);
  assert.equal((await deploy(d, app)).error, null);
  // A health check every nanosecond: the engine refuses such a spec (at least 1 ms), once the old service is gone.
  const { error, log } = await deploy(d, { ...app, modeOrch: { Global: {} }, healthCheckOrch: { Test: ['CMD', 'true'], Interval: 1 } });
  assert.notEqual(error, null, log.join('\n'));
  await eventually('the previous version to serve again', async () =>
    Object.keys((await engine.inspectService(app.appName))?.spec.Mode ?? {})[0] === 'Replicated' && (await httpBody(port)) === 'berth-test httpd\n', 30_000)
    .catch((failure: Error) => { throw new Error(`${failure.message}\n${String(error)}\n${log.join('\n')}`); });
});
