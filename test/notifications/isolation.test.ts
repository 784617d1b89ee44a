// One dead receiver holds back no other subscription: handling an event only queues its deliveries
// in the log (listed pending at once), and each subscription is sent its own in the background, in
// the order of each stream.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort, type HttpClient, type ListeningBerth } from '../support/http.ts';
import { eventually } from '../support/role-process.ts';
import { notifyingBerth, signInAdmin, startReceiver, type Receiver } from './support.ts';

const ADMIN = { email: 'isolation@berth.test', password: 'a long enough password' };
const PROJECTS = 40;
const RENAMES = 5;
/** Far longer than the test: a delivery to the dead receiver stays pending between its attempts. */
const RETRY_MS = 120_000;

interface Received { type: string; stream: string; name: string; at: number }

describe('a dead webhook receiver', () => {
  let server: ListeningBerth;
  let api: HttpClient;
  let receiver: Receiver;
  const received: Received[] = [];

  before(async () => {
    receiver = await startReceiver((_request, body, response) => {
      const event = JSON.parse(body);
      received.push({ type: event.type, stream: event.stream, name: event.data.name, at: Date.now() });
      response.writeHead(204).end();
    });
    server = await notifyingBerth([RETRY_MS, RETRY_MS]);
    api = await signInAdmin(server, ADMIN);
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  it('holds back no other subscription, and its own deliveries are listed pending at once', async () => {
    const eventTypes = ['ProjectCreated', 'ProjectUpdated'];
    const dead = await api.ok('notification.create', { url: `http://127.0.0.1:${await freePort()}/nobody-listens`, eventTypes });
    const healthy = await api.ok('notification.create', { url: `${receiver.url}/chat`, eventTypes });
    const started = Date.now();
    const { projectId } = await api.ok('project.create', { name: 'renamed often' });
    for (let rename = 1; rename <= RENAMES; rename++) await api.ok('project.update', { projectId, name: `renamed ${rename}` });
    await Promise.all(Array.from({ length: PROJECTS - 1 }, (_, n) => api.ok('project.create', { name: `burst ${n}` })));
    const expected = PROJECTS + RENAMES;

    await eventually(async () => received.length >= expected, 8000, `the healthy receiver to get all ${expected} events`)
      .catch((error: Error) => { throw new Error(`${error.message}: got ${received.length} after ${Date.now() - started} ms`); });
    const renamed = received.filter((event) => event.stream === `project-${projectId}`).map((event) => event.name);
    assert.deepEqual(renamed, ['renamed often', ...Array.from({ length: RENAMES }, (_, n) => `renamed ${n + 1}`)], 'the order of one stream');

    // The dead one's: every event is a delivery in the log at once, pending (queued, or between two attempts).
    const deliveries = await eventually(async () => {
      const list: Array<{ status: string; attempts: unknown[] }> = await api.ok('notification.deliveries', { subscriptionId: dead.subscriptionId });
      return list.length === expected ? list : undefined;
    }, 3000, 'the dead receiver\'s deliveries to be listed');
    assert.ok(deliveries.every((delivery) => delivery.status === 'pending'), JSON.stringify(deliveries.slice(0, 3)));
    assert.ok(deliveries.some((delivery) => delivery.attempts.length === 0), 'deliveries waiting their turn are listed');
    const sent = await api.ok('notification.deliveries', { subscriptionId: healthy.subscriptionId });
    assert.equal(sent.filter((delivery: { status: string }) => delivery.status === 'delivered').length, expected);
  });
});
