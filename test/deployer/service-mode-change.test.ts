// An application's mode (replicated, global, job) may change between deploys: the engine cannot
// change a service's mode, so Berth recreates the service; a failed deploy brings the old one back.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TEST_IMAGE, uniqueName, engine, eventually, httpBody } from '../support/engine.ts';
import { freePort } from '../support/http.ts';
import type { Application } from '@berth/shared/domain/application/record';
import { deploy, deployer, portOf, testApplication } from '../support/deploy-work.ts';

const d = deployer({ taskStartTimeoutMs: 10_000, taskSteadyMs: 1000 });
const apps: Application[] = [];
// Its own removal: a job's exited containers stay until Berth removes them.
after(async () => { for (const app of apps) await d.actions.remove(app).catch(() => {}); });

const modeOf = async (name: string) => Object.keys((await engine.inspectService(name))!.spec.Mode ?? {})[0];

test('a deployed application deploys again after its mode changed, each mode in turn', async () => {
  const app = testApplication({ appName: uniqueName('berth-test-fm'), sourceType: 'container', containerImage: TEST_IMAGE });
  apps.push(app);
  assert.equal((await deploy(d, app)).error, null);
  for (const modeOrch of [{ Global: {} }, { ReplicatedJob: {} }, { GlobalJob: {} }, { Replicated: { Replicas: 1 } }]) {
    const job = 'ReplicatedJob' in modeOrch || 'GlobalJob' in modeOrch;
    const { error, log } = await deploy(d, { ...app, modeOrch, command: job ? 'echo done' : null });
    assert.equal(error, null, `${JSON.stringify(modeOrch)}: ${log.join('\n')}`);
    assert.equal(await modeOf(app.appName), Object.keys(modeOrch)[0]);
  }
});

test('a failed deploy in another mode brings the previous service back', async () => {
  const port = await freePort();
  const app = testApplication({ appName: uniqueName('berth-test-fm'), sourceType: 'container', containerImage: TEST_IMAGE });
  apps.push(app);
  d.ports.set(app.applicationId, [portOf(app, port)]);
  assert.equal((await deploy(d, app)).error, null);
  const { error, log } = await deploy(d, { ...app, modeOrch: { Global: {} }, command: 'exit 3' });
  assert.match(error?.message ?? 'done', /non-zero exit \(3\)/);
  assert.equal(await modeOf(app.appName), 'Replicated', log.join('\n'));
  assert.equal(await eventually('the previous service', () => httpBody(port)), 'berth-test httpd\n');
});
