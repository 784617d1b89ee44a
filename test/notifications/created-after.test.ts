// A subscription is sent only events appended after it was created, even when the relay publishes
// older ones again: here the whole log, as after a crash before the relay saved its checkpoint.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileCheckpoint } from '@berth/shared/adapters/file-checkpoint';
import { eventually } from '../support/role-process.ts';
import { killableBerth, startReceiver, type Receiver } from './support.ts';

const ADMIN = { email: 'created-after@berth.test', password: 'a long enough password' };

describe('a subscription created after an event', () => {
  let receiver: Receiver;
  const names: string[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  before(async () => {
    receiver = await startReceiver((_request, body, response) => {
      names.push(JSON.parse(body).data.name);
      response.writeHead(204).end();
    });
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await receiver.close();
  });

  it('is not sent it after a kill -9 and a restart that publishes the log again', async () => {
    const berth = await killableBerth({ BERTH_NOTIFY_RETRY_MS: '20000', BERTH_NOTIFY_TIMEOUT_MS: '500' }, cleanups, 'berth-created-after-');
    const { dataDir, start } = berth;
    const killed = await start();
    const api = await berth.signIn(ADMIN);

    await api.ok('project.create', { name: 'made before the subscription' });
    const { subscriptionId } = await api.ok('notification.create', { url: `${receiver.url}/hook`, eventTypes: ['ProjectCreated'] });
    await api.ok('project.create', { name: 'made after it' });
    await eventually(async () => names.includes('made after it'), 10_000, 'the event after the subscription to arrive');
    // Recorded as delivered before the kill: one killed in between is sent again, as README says (at least once).
    await eventually(async () => (await api.ok('notification.deliveries', { subscriptionId }) as Array<{ status: string }>)
      .some((delivery) => delivery.status === 'delivered'), 10_000, 'the delivery to be recorded');
    killed.child.kill('SIGKILL');
    await killed.exited;
    // The relay publishes the whole log again, as when it was killed before it saved how far it got.
    await fileCheckpoint(join(dataDir, 'relay.checkpoint')).save(0);

    await start();
    await api.ok('project.create', { name: 'made after the restart' });
    await eventually(async () => names.includes('made after the restart'), 15_000, 'the event after the restart to arrive');
    await new Promise((resolve) => setTimeout(resolve, 500)); // anything older published again would be here by now
    assert.deepEqual(names, ['made after it', 'made after the restart']);
    const deliveries: Array<{ status: string }> = await api.ok('notification.deliveries', { subscriptionId });
    assert.deepEqual(deliveries.map((delivery) => delivery.status), ['delivered', 'delivered']);
  });
});
