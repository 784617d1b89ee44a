// Webhook notifications end to end: a real Berth with its relay and reactors on the in-process
// bus, and local receivers: each subscribed event arrives once with a valid signature, a receiver
// that fails twice gets it on the third attempt, one that never answers is recorded as failed.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { HttpClient, ListeningBerth } from '../support/http.ts';
import { notifyingBerth, signInAdmin, startReceiver, type Receiver } from './support.ts';

const ADMIN = { email: 'notify@berth.test', password: 'a long enough password' };
const SECRET = 'a shared secret of the receiver';

interface Received { path: string; body: string; headers: IncomingMessage['headers'] }

describe('webhook notifications', () => {
  let server: ListeningBerth;
  let api: HttpClient;
  let receiver: Receiver;
  let receiverUrl: string;
  const received: Received[] = [];
  let flakyCalls = 0;

  before(async () => {
    receiver = await startReceiver((request, body, response) => {
      received.push({ path: request.url!, body, headers: request.headers });
      if (request.url === '/silent') return; // never answers
      if (request.url === '/flaky' && ++flakyCalls <= 2) return response.writeHead(500).end('not yet');
      response.writeHead(204).end();
    });
    receiverUrl = receiver.url;
    server = await notifyingBerth([50, 100]);
    api = await signInAdmin(server, ADMIN);
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  /** The subscription's deliveries once `done` says they are complete (bounded wait). */
  async function deliveriesWhen(subscriptionId: string, done: (deliveries: any[]) => boolean): Promise<any[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const deliveries = await api.ok('notification.deliveries', { subscriptionId });
      if (done(deliveries)) return deliveries;
      if (Date.now() > deadline) assert.fail(`deliveries never completed: ${JSON.stringify(deliveries)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('refuses a URL that is not http(s) and an empty list of event types, naming the field', async () => {
    for (const [input, field] of [
      [{ url: 'ftp://example.test/hook', eventTypes: ['ProjectCreated'] }, 'url'],
      [{ url: 'not a url', eventTypes: ['ProjectCreated'] }, 'url'],
      [{ url: `${receiverUrl}/ok`, eventTypes: [] }, 'eventTypes'],
    ] as const) {
      const answer = await api.call('notification.create', input);
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.issues.map((issue: { path: string }) => issue.path), [field]);
    }
  });

  it('posts each subscribed event once, signed with the subscription secret, and lists the delivery', async () => {
    const subscription = await api.ok('notification.create', { url: `${receiverUrl}/ok`, eventTypes: ['ProjectCreated'], secret: SECRET });
    assert.equal(subscription.secret, SECRET);
    const first = await api.ok('project.create', { name: 'announced one' });
    await api.ok('application.create', { name: 'not subscribed', projectId: first.projectId });
    await api.ok('project.create', { name: 'announced two' });
    const deliveries = await deliveriesWhen(subscription.subscriptionId, (list) => list.length === 2 && list.every((d) => d.status === 'delivered'));
    for (const delivery of deliveries) assert.deepEqual(delivery.attempts.map((a: any) => [a.attempt, a.status, a.ok]), [[1, 204, true]]);
    await new Promise((resolve) => setTimeout(resolve, 300)); // anything doubled would arrive by now
    const posts = received.filter((request) => request.path === '/ok');
    assert.equal(posts.length, 2);
    for (const post of posts) {
      const expected = `sha256=${createHmac('sha256', SECRET).update(post.body).digest('hex')}`;
      assert.equal(post.headers['x-berth-signature'], expected);
      assert.equal(JSON.parse(post.body).type, 'ProjectCreated');
      assert.equal(post.headers['x-berth-event'], 'ProjectCreated');
    }
    assert.deepEqual(new Set(posts.map((post) => JSON.parse(post.body).id)).size, 2);
    const log = await (await fetch(`${api.baseUrl}/api/events.export`, { headers: { authorization: `Bearer ${api.token}` } })).text();
    assert.ok(!log.includes(SECRET), 'the subscription secret is in the log in clear');
    await api.ok('notification.remove', { subscriptionId: subscription.subscriptionId });
  });

  it('retries with back-off: a receiver failing twice gets the event on the third attempt', async () => {
    const subscription = await api.ok('notification.create', { url: `${receiverUrl}/flaky`, eventTypes: ['ProjectCreated'] });
    assert.ok(subscription.secret.length >= 16, 'a secret is generated');
    await api.ok('project.create', { name: 'persistent' });
    const [delivery] = await deliveriesWhen(subscription.subscriptionId, (list) => list[0]?.status === 'delivered');
    assert.deepEqual(delivery.attempts.map((a: any) => [a.attempt, a.status, a.ok]), [[1, 500, false], [2, 500, false], [3, 204, true]]);
    assert.equal(delivery.attempts[0].reason, 'answered HTTP 500');
    const posts = received.filter((request) => request.path === '/flaky');
    assert.equal(posts.length, 3);
    assert.equal(new Set(posts.map((post) => post.headers['x-berth-delivery'])).size, 1);
    await api.ok('notification.remove', { subscriptionId: subscription.subscriptionId });
  });

  it('records a receiver that never answers as failed, with the reason of each attempt', async () => {
    const subscription = await api.ok('notification.create', { url: `${receiverUrl}/silent`, eventTypes: ['ProjectCreated'] });
    await api.ok('project.create', { name: 'unheard' });
    const [delivery] = await deliveriesWhen(subscription.subscriptionId, (list) => list[0]?.status === 'failed');
    assert.equal(delivery.attempts.length, 3);
    for (const attempt of delivery.attempts) assert.equal(attempt.reason, 'no answer within 500 ms');
    await api.ok('notification.remove', { subscriptionId: subscription.subscriptionId });
  });
});
