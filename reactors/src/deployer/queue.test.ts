// The deployment queue's order and limit are tested through the deployer; this is what a cancelled
// waiting job leaves behind: nothing that waits for its service (a removal) waits for its slot.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DeploymentQueue } from './queue.ts';

describe('a job cancelled while it waits', () => {
  it('is dropped: its service is idle at once, though other services hold every slot', async () => {
    let finishA = () => {};
    const ran: string[] = [];
    const queue = new DeploymentQueue<{ deploymentId: string; serviceId: string }>(1, async (job) => {
      ran.push(job.deploymentId);
      if (job.serviceId === 'a') await new Promise<void>((resolve) => { finishA = resolve; });
    });
    queue.add({ deploymentId: 'a1', serviceId: 'a' });
    queue.add({ deploymentId: 'b1', serviceId: 'b' });
    let idle = false;
    const waiting = queue.whenIdle('b').then(() => { idle = true; });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(idle, false, 'b1 still waits for the one slot');
    queue.forget('b1');
    await waiting;
    assert.equal(idle, true);
    finishA();
    await queue.whenIdle();
    assert.deepEqual(ran, ['a1'], 'the cancelled job never ran');
  });
});
