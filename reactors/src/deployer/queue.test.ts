// The deployment queue's order and limit are tested through the deployer; this is the turn a
// service's action takes in it, and what a cancelled waiting job leaves behind.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DeploymentQueue } from './queue.ts';

type Job = { deploymentId: string; serviceId: string };

/** A queue whose jobs each run until the test ends them, recording what started and ended. */
function queueOf(limit: number) {
  const events: string[] = [];
  const finish = new Map<string, () => void>();
  const queue = new DeploymentQueue<Job>(limit, async (job) => {
    events.push(`start ${job.deploymentId}`);
    await new Promise<void>((resolve) => finish.set(job.deploymentId, resolve));
    events.push(`end ${job.deploymentId}`);
  });
  const act = (serviceId: string, name: string) => queue.alone(serviceId, async () => { events.push(name); });
  return { queue, events, act, end: (id: string) => finish.get(id)!() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('a service\'s action in the deployment queue', () => {
  it('runs once the service\'s running deployment ended, before the deployments that wait, which start after it', async () => {
    const { queue, events, act, end } = queueOf(2);
    queue.add({ deploymentId: 'a1', serviceId: 'a' });
    queue.add({ deploymentId: 'a2', serviceId: 'a' });
    const stopped = act('a', 'stop a');
    await settle();
    assert.deepEqual(events, ['start a1'], 'the action ran in the middle of a1');
    end('a1');
    await stopped;
    await settle();
    assert.deepEqual(events, ['start a1', 'end a1', 'stop a', 'start a2']);
    end('a2');
  });

  it('runs at once for a service with no deployment running, though other services hold every slot', async () => {
    const { queue, events, act, end } = queueOf(1);
    queue.add({ deploymentId: 'b1', serviceId: 'b' });
    await act('a', 'start a');
    assert.deepEqual(events, ['start b1', 'start a']);
    end('b1');
  });

  it('takes the turn at once: a job added while its first step runs starts only after the action', async () => {
    const { queue, events, end } = queueOf(2);
    let firstDone = () => {};
    const acted = queue.alone('a', async () => { events.push('stop a'); },
      () => new Promise<void>((resolve) => { firstDone = resolve; }));
    queue.add({ deploymentId: 'a1', serviceId: 'a' });
    await settle();
    assert.deepEqual(events, [], 'a1 started before the action asked first');
    firstDone();
    await acted;
    await settle();
    assert.deepEqual(events, ['stop a', 'start a1']);
    end('a1');
  });

  it('runs the actions of one service in the order they came, one waiting for an earlier one still in its first step', async () => {
    const { queue, events } = queueOf(1);
    let firstDone = () => {};
    const stop = queue.alone('a', async () => { events.push('stop a'); }, () => new Promise<void>((resolve) => { firstDone = resolve; }));
    const start = queue.alone('a', async () => { events.push('start a'); });
    await settle();
    assert.deepEqual(events, []);
    firstDone();
    await Promise.all([stop, start]);
    assert.deepEqual(events, ['stop a', 'start a']);
  });

  it('answers what the action threw, and frees the service\'s turn', async () => {
    const { queue, events, end } = queueOf(1);
    await assert.rejects(queue.alone('a', async () => { throw new Error('not deployed'); }), /not deployed/);
    queue.add({ deploymentId: 'a1', serviceId: 'a' });
    await settle();
    assert.deepEqual(events, ['start a1']);
    end('a1');
  });
});

describe('a job cancelled while it waits', () => {
  it('is dropped: it never runs, and the next one of its service takes its place', async () => {
    const { queue, events, end } = queueOf(1);
    queue.add({ deploymentId: 'b1', serviceId: 'b' });
    queue.add({ deploymentId: 'a1', serviceId: 'a' });
    queue.add({ deploymentId: 'a2', serviceId: 'a' });
    queue.forget('a1');
    end('b1');
    await settle();
    assert.deepEqual(events, ['start b1', 'end b1', 'start a2']);
    end('a2');
  });
});
