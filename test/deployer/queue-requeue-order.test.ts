// After a restart the deployments left queued run in the order they were asked, also those asked
// within one millisecond (same createdAt, as a burst of deploys or a frozen clock gives them).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startDeployingBerth, until } from '../support/deployer.ts';
import { ManualClock } from '../support/clock.ts';
import { streamName } from '@berth/shared/events/event';

describe('the queue after a restart', () => {
  it('runs a service\'s deployments queued in one millisecond in the order they were asked', async () => {
    const clock = new ManualClock(); // never moves: every deployment has the same createdAt
    let it_ = await startDeployingBerth({ clock, config: { keepDeployments: 20 } });
    const { dataDir } = it_.berth;
    try {
      const { projectId } = await it_.berth.ok('project.create', { name: 'restarted' });
      const { applicationId } = await it_.berth.ok('application.create', { name: 'burst', projectId });
      await it_.berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'burst:1' });
      // A burst: asked at once, in the order the log holds them (their ids alone, time-ordered to the millisecond, cannot say).
      const burst: string[] = await Promise.all(Array.from({ length: 12 }, async () =>
        (await it_.berth.ok('application.deploy', { applicationId })).deploymentId));
      const { eventStore } = it_.berth.berth.infrastructure;
      const queuedAt = new Map(await Promise.all(burst.map(async (id) =>
        [id, (await eventStore.readStream(streamName('deployment', id))).events[0]!.position] as const)));
      const asked = burst.sort((a, b) => queuedAt.get(a)! - queuedAt.get(b)!);
      await it_.double.runs(asked[0]!); // the rest wait behind it
      await it_.stop({ keepData: true });
      it_ = await startDeployingBerth({ dataDir, clock, config: { keepDeployments: 20 } });
      it_.double.autoFinish = true;
      await until(it_.berth, asked.at(-1)!, 'done');
      assert.deepEqual(it_.double.started, asked.slice(1), 'the queued deployments ran in another order than asked');
    } finally {
      await it_.stop();
    }
  });
});
