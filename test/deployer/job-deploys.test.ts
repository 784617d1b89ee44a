// A job's deployment: its tasks run to completion, however long they take once they run; it is done
// when every completion it asks for is done; and a failed one never runs the previous job again.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TEST_IMAGE, uniqueName, engine } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import type { Application } from '@berth/shared/domain/application/record';

const BOUND_MS = 4000;
const d = deployer({ taskStartTimeoutMs: BOUND_MS, taskSteadyMs: 500 });
const apps: Application[] = [];
// Its own removal: a job's exited containers stay until Berth removes them.
after(async () => { for (const app of apps) await d.actions.remove(app).catch(() => {}); });

const jobApp = (fields: Partial<Application>) => {
  const app = testApplication({ appName: uniqueName('berth-test-fm'), sourceType: 'container', containerImage: TEST_IMAGE, modeOrch: { ReplicatedJob: {} }, ...fields });
  apps.push(app);
  return app;
};

/** Every line the service's containers printed. */
async function outputOf(name: string): Promise<string> {
  const containers = await engine.listContainers({ label: `com.docker.swarm.service.name=${name}` });
  const { execFileSync } = await import('node:child_process');
  return containers.map((c) => execFileSync('docker', ['logs', c.containerId], { encoding: 'utf8' })).join('');
}

test('a job that runs longer than the start bound is done once it completes', async () => {
  const app = jobApp({ command: `echo started; sleep ${(BOUND_MS * 2) / 1000}; echo ended` });
  const { error, log } = await deploy(d, app);
  assert.equal(error, null, log.join('\n'));
  assert.match(await outputOf(app.appName), /ended/);
});

test('a job with several completions is done only when all of them completed', async () => {
  const app = jobApp({
    modeOrch: { ReplicatedJob: { MaxConcurrent: 2, TotalCompletions: 2 } },
    env: 'SLOT={{.Task.Slot}}',
    restartPolicyOrch: { Condition: 'none' },
    command: '[ "$SLOT" = 1 ] && exit 0; sleep 2; exit 1',
  });
  const { error, log } = await deploy(d, app);
  assert.notEqual(error, null, `one completion of two failed: ${log.join('\n')}`);
  assert.match(error!.message, /non-zero exit \(1\)/);
});

test('a failed job deployment does not run the previous job again', async () => {
  const app = jobApp({ command: 'echo OLD-JOB-RAN' });
  assert.equal((await deploy(d, app)).error, null);
  const { error, log } = await deploy(d, { ...app, command: 'exit 3' });
  assert.notEqual(error, null);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  assert.equal((await outputOf(app.appName)).match(/OLD-JOB-RAN/g)?.length, 1, 'the old job ran once, at its own deploy');
  assert.ok(log.some((line) => /previous job is not run again/.test(line)), log.join('\n'));
  assert.ok(!log.some((line) => /Restored the previous version/.test(line)), log.join('\n'));
});
