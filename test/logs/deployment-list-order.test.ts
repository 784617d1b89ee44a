// deployment.all (and an application's deployments) list newest first; a burst queued within one
// millisecond (same createdAt) is listed in the order the log queued it, also after a rebuild of
// the read models: time-ordered ids alone order at random within a millisecond.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streamName } from '@berth/shared/events/event';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { ManualClock } from '../support/clock.ts';

describe('deployment lists: queue order', () => {
  let berth: TestBerth;
  let applicationId: string;
  /** The burst's ids, newest queued first. */
  let newestFirst: string[];

  before(async () => {
    // No reactors: the deployments stay queued. The clock never moves: one createdAt for all.
    berth = await startBerth({ clock: new ManualClock() });
    const { projectId } = await berth.ok('project.create', { name: 'burst' });
    ({ applicationId } = await berth.ok('application.create', { name: 'burst', projectId }));
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'burst:1' });
    const burst: string[] = await Promise.all(Array.from({ length: 12 }, async () =>
      (await berth.ok('application.deploy', { applicationId })).deploymentId));
    const { eventStore } = berth.berth.infrastructure;
    const queuedAt = new Map(await Promise.all(burst.map(async (id) =>
      [id, (await eventStore.readStream(streamName('deployment', id))).events[0]!.position] as const)));
    newestFirst = [...burst].sort((a, b) => queuedAt.get(b)! - queuedAt.get(a)!);
  });
  after(() => berth.stop());

  const listed = async () => (await berth.ok('deployment.all', { applicationId })).map((d: { deploymentId: string }) => d.deploymentId);

  it('lists deployments queued in the same millisecond newest queued first', async () => {
    assert.deepEqual(await listed(), newestFirst);
  });

  it('lists an application\'s deployments in application.one in the same order', async () => {
    const { deployments } = await berth.ok('application.one', { applicationId });
    assert.deepEqual(deployments.map((d: { deploymentId: string }) => d.deploymentId), newestFirst);
  });

  it('keeps the queue order after the read models are rebuilt', async () => {
    assert.equal((await berth.ok('projections.rebuild', {})).status, 'done');
    assert.deepEqual(await listed(), newestFirst);
  });

  it('answers no bookkeeping field of the read models', async () => {
    const [first] = await berth.ok('deployment.all', { applicationId });
    assert.deepEqual(Object.keys(first).filter((key) => key.startsWith('_')), []);
  });
});
