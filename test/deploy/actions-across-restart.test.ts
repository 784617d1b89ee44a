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
      assert.equal((await second.berth.ok('application.one', { applicationId })).applicationStatus, 'done');
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
