// What a restart finds of the actions asked before it. The reactors acknowledge a start, stop or
// reload on the bus before they do it (it waits for the service's turn), so the bus never hands it
// out again: the restarted reactors take up each one left unanswered, ahead of the deployments
// queued after it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { eventually } from '../support/engine.ts';
import { startDeployingBerth, until } from '../support/deployer.ts';
import type { TestBerth } from '../support/berth.ts';
import { ManualClock } from '../support/clock.ts';

const eventsOf = async (berth: TestBerth, applicationId: string) =>
  (await berth.berth.infrastructure.eventStore.readStream(`application-${applicationId}`)).events;

describe('actions across a restart (engine work replaced by a double)', () => {
  it('does a start left waiting behind a deployment once Berth is back, before the deployment asked after it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-actions-restart-'));
    try {
      const first = await startDeployingBerth({ dataDir, config: { actionWaitMs: 300 } });
      const { projectId } = await first.berth.ok('project.create', { name: 'restart' });
      const { applicationId, appName } = await first.berth.ok('application.create', { name: 'restarting', projectId });
      await first.berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'restart:1' });
      const running = (await first.berth.ok('application.deploy', { applicationId })).deploymentId;
      await first.double.runs(running);
      const asked = await first.berth.call('application.start', { applicationId });
      assert.equal(asked.status, 409, JSON.stringify(asked.body));
      assert.match(asked.body.message, /still in progress/);
      const queuedAfter = (await first.berth.ok('application.deploy', { applicationId })).deploymentId;
      // The process dies: its reactors never act again, and the bus had acknowledged the start.
      await first.berth.stop({ keepData: true });

      const second = await startDeployingBerth({ dataDir });
      const { requestId } = (await eventsOf(second.berth, applicationId)).find((event) => event.type === 'ApplicationActionRequested')!.data as { requestId: string };
      const outcome = await eventually('the start to be answered', async () =>
        (await eventsOf(second.berth, applicationId)).find((event) => event.type !== 'ApplicationActionRequested' && (event.data as { requestId?: string }).requestId === requestId), 10_000);
      assert.equal(outcome.type, 'ApplicationActionSucceeded');
      assert.equal((await until(second.berth, running, 'error')).reason, 'interrupted');
      // The deployment asked after the start runs after it.
      const gate = await second.double.runs(queuedAfter);
      assert.deepEqual(second.double.actions, [`start ${appName}`]);
      gate.open();
      await until(second.berth, queuedAfter, 'done');
      // The service's status follows its deployment's end, a moment later.
      await eventually('the application done', async () => (await second.berth.ok('application.one', { applicationId })).applicationStatus === 'done', 5000);
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('answers a request left unanswered too long ago as expired, not done, its status unchanged', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-actions-expired-'));
    try {
      const first = await startDeployingBerth({ dataDir, config: { actionWaitMs: 300 } });
      const { projectId } = await first.berth.ok('project.create', { name: 'expired' });
      const { applicationId } = await first.berth.ok('application.create', { name: 'long-gone', projectId });
      await first.berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'expired:1' });
      const running = (await first.berth.ok('application.deploy', { applicationId })).deploymentId;
      await first.double.runs(running);
      assert.equal((await first.berth.call('application.start', { applicationId })).status, 409);
      await first.berth.stop({ keepData: true });

      // Back eleven minutes later: the start is not done then.
      const clock = new ManualClock(Date.now() + 11 * 60_000);
      const second = await startDeployingBerth({ dataDir, clock });
      const { requestId } = (await eventsOf(second.berth, applicationId)).find((event) => event.type === 'ApplicationActionRequested')!.data as { requestId: string };
      const outcome = await eventually('the start to be answered', async () =>
        (await eventsOf(second.berth, applicationId)).find((event) => event.type === 'ApplicationActionFailed' && (event.data as { requestId?: string }).requestId === requestId), 10_000);
      assert.match((outcome.data as { reason: string }).reason, /^not done: Berth stopped before it was, 1\d minutes ago; ask again$/);
      assert.deepEqual(second.double.actions, []);
      // The interrupted deployment's error stays: the expired start moved nothing.
      assert.equal((await second.berth.ok('application.one', { applicationId })).applicationStatus, 'error');
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
