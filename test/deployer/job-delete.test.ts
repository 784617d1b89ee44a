// Deleting a job application takes its exited task containers and its images with its service.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TEST_IMAGE, uniqueName, engine } from '../support/engine.ts';
import type { Application } from '@berth/shared/domain/application/record';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import { APPLICATION_MARK } from '@berth/shared/domain/ownership';

// Long enough for a loaded machine to schedule the job; the removal must not wait it out.
const BOUND_MS = 10_000;
const d = deployer({ taskStartTimeoutMs: BOUND_MS });
const apps: Application[] = [];
// Its own removal: a job's exited containers stay until Berth removes them.
after(async () => { for (const app of apps) await d.actions.remove(app).catch(() => {}); });

test('removing a job application removes its exited containers and its images', async () => {
  const app = testApplication({ appName: uniqueName('berth-test-fm'), sourceType: 'container', containerImage: TEST_IMAGE, modeOrch: { ReplicatedJob: {} }, command: 'echo ok' });
  apps.push(app);
  const { error, log } = await deploy(d, app);
  assert.equal(error, null, log.join('\n'));
  const started = Date.now();
  await d.actions.remove(app);
  assert.ok(Date.now() - started < BOUND_MS, `removed without waiting out the bound (${Date.now() - started} ms)`);
  assert.deepEqual(await engine.listContainers({ label: `${APPLICATION_MARK}=${app.applicationId}` }), []);
  assert.deepEqual(await engine.imageTags(`berth/${app.appName}`), []);
});
