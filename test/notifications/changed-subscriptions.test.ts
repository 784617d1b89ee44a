// Webhooks whose subscription changes under a delivery: a removed subscription gets no more
// attempts (the delivery ends, saying why), and a URL with a user name and password is refused, nor
// can a failure reason Berth records quote one (a subscription saved before the refusal).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RecordedEvent } from '@berth/shared/events/event';
import type { HttpClient, ListeningBerth } from '../support/http.ts';
import { notifyingBerth, signInAdmin, startReceiver, subscribeInLog, type Receiver } from './support.ts';

const ADMIN = { email: 'notify@berth.test', password: 'a long enough password' };
const PASSWORD = 's3cretpw';

interface Received { path: string; eventId: string }

describe('webhooks whose subscription changes', () => {
  let server: ListeningBerth;
  let api: HttpClient;
  let receiver: Receiver;
  const received: Received[] = [];

  before(async () => {
    receiver = await startReceiver((request, body, response) => {
      received.push({ path: request.url!, eventId: JSON.parse(body).id });
      response.writeHead(503).end();
    });
    server = await notifyingBerth([800, 800, 800]);
    api = await signInAdmin(server, ADMIN);
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  /** The events of a stream once `done` says they are complete (bounded wait). */
  async function streamWhen(stream: string, done: (events: readonly RecordedEvent[]) => boolean): Promise<readonly RecordedEvent[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { events } = await server.berth.infrastructure.eventStore.readStream(stream);
      if (done(events)) return events;
      if (Date.now() > deadline) assert.fail(`${stream} never completed: ${JSON.stringify(events)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('stops retrying once the subscription is removed, ending the delivery with that reason', async () => {
    const { subscriptionId } = await api.ok('notification.create', { url: `${receiver.url}/removed`, eventTypes: ['ProjectCreated'] });
    await api.ok('project.create', { name: 'announced to a failing receiver' });
    while (!received.some((request) => request.path === '/removed')) await new Promise((resolve) => setTimeout(resolve, 20));
    await api.ok('notification.remove', { subscriptionId });
    const { eventId } = received.find((request) => request.path === '/removed')!;
    const events = await streamWhen(`delivery-${subscriptionId}.${eventId}`, (list) => list.some((event) => event.type === 'DeliveryFailed'));
    assert.deepEqual(events.map((event) => event.type), ['DeliveryQueued', 'DeliveryAttempted', 'DeliveryFailed']);
    assert.deepEqual(events[2]!.data, { deliveryId: `${subscriptionId}.${eventId}`, reason: 'the subscription was removed' });
    await new Promise((resolve) => setTimeout(resolve, 1000)); // a retry would have arrived by now
    assert.equal(received.filter((request) => request.path === '/removed').length, 1);
  });

  it('refuses a URL with a user name or password with 400 naming url, appending nothing', async () => {
    const head = await server.berth.infrastructure.eventStore.head();
    for (const url of [`http://hookuser:${PASSWORD}@127.0.0.1/hook`, 'https://hookuser@example.test/hook', `https://:${PASSWORD}@example.test/hook`]) {
      const answer = await api.call('notification.create', { url, eventTypes: ['ProjectCreated'] });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.issues.map((issue: { path: string }) => issue.path), ['url']);
      assert.ok(!JSON.stringify(answer.body).includes(PASSWORD));
    }
    assert.equal(await server.berth.infrastructure.eventStore.head(), head);
  });

  it('records no password in the failure reasons of a subscription saved with one before the refusal', async () => {
    const { eventStore } = server.berth.infrastructure;
    const subscriptionId = await subscribeInLog(server, `${receiver.url.replace('//', `//hookuser:${PASSWORD}@`)}/legacy`, ['ProjectCreated']);
    await api.ok('project.create', { name: 'announced to a URL with a password' });
    const deadline = Date.now() + 15_000;
    let deliveries: Array<{ deliveryId: string; status: string; attempts: Array<{ reason: string | null }> }> = [];
    while (deliveries[0]?.status !== 'failed') {
      if (Date.now() > deadline) assert.fail(`the delivery never ended: ${JSON.stringify(deliveries)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      deliveries = await api.ok('notification.deliveries', { subscriptionId });
    }
    assert.equal(deliveries[0]!.attempts.length, 4);
    for (const attempt of deliveries[0]!.attempts) assert.match(attempt.reason ?? '', /^unreachable: /);
    const { events } = await eventStore.readStream(`delivery-${deliveries[0]!.deliveryId}`);
    assert.ok(events.length > 0);
    assert.ok(!JSON.stringify(deliveries).includes(PASSWORD), JSON.stringify(deliveries));
    assert.ok(!JSON.stringify(events).includes(PASSWORD), JSON.stringify(events));
  });
});
