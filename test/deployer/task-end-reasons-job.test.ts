// Why a deploy's tasks ended, said plainly: a failed health check, memory run out; and a task that
// no restart will follow fails the deployment at once, not at the end of the start bound.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TEST_IMAGE, uniqueName } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import type { Application } from '@berth/shared/domain/application/record';

const BOUND_MS = 30_000;
const d = deployer({ taskStartTimeoutMs: BOUND_MS, taskSteadyMs: 4000 });
const apps: Application[] = [];
// Its own removal: a job's exited containers stay until Berth removes them.
after(async () => { for (const app of apps) await d.actions.remove(app).catch(() => {}); });

const deployed = async (fields: Partial<Application>) => {
  const app = testApplication({ appName: uniqueName('berth-test-fm'), sourceType: 'container', containerImage: TEST_IMAGE, ...fields });
  apps.push(app);
  const started = Date.now();
  return { ...(await deploy(d, app)), tookMs: Date.now() - started };
};

test('a container its health check finds unhealthy fails the deployment saying so', async () => {
  const second = 1_000_000_000;
  const { error } = await deployed({
    healthCheckOrch: { Test: ['CMD', '/bin/sh', '-c', 'exit 1'], Interval: second, Timeout: second, Retries: 1 },
    restartPolicyOrch: { Condition: 'none' },
  });
  assert.match(error?.message ?? 'done', /unhealthy/);
  assert.doesNotMatch(error!.message, /its command exited/);
});

test('a task killed for memory says it ran out of memory, and its limit', async () => {
  const { error } = await deployed({ memoryLimit: 16 * 1024 * 1024, command: 'head -c 200000000 /dev/zero | tail', restartPolicyOrch: { Condition: 'none' } });
  assert.match(error?.message ?? 'done', /out of memory \(its limit: 16 MiB\)/);
});

test('a crash no restart will follow fails the deployment at once', async () => {
  const { error, tookMs } = await deployed({ command: 'exit 5', restartPolicyOrch: { Condition: 'none' } });
  assert.match(error?.message ?? 'done', /non-zero exit \(5\)/);
  assert.ok(tookMs < 10_000, `failed before the bound (${tookMs} ms)`);
});

test('a crash after the last restart attempt fails the deployment at once', async () => {
  const { error, tookMs } = await deployed({ command: 'exit 6', restartPolicyOrch: { Condition: 'on-failure', MaxAttempts: 1, Delay: 100_000_000 } });
  assert.match(error?.message ?? 'done', /non-zero exit \(6\)/);
  assert.ok(tookMs < 10_000, `failed before the bound (${tookMs} ms)`);
});
