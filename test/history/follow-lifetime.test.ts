// How long a follow of the history lasts: it ends when Berth is asked to stop (which would
// otherwise wait for the follower to hang up), and a token revoked while it runs stops receiving.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listeningBerth, signInFirstAdmin, type HttpClient, type ListeningBerth } from '../support/http.ts';

const ADMIN = { email: 'follower@berth.test', password: 'a long enough password' };

async function signedIn(server: ListeningBerth): Promise<HttpClient> {
  const api = await signInFirstAdmin(server, ADMIN);
  return api;
}

/** Opens a server-sent follow of the projects; `text()` is everything received so far, `ended` settles when the stream ends. */
async function follow(api: HttpClient, token: string) {
  const response = await fetch(`${api.baseUrl}/api/events.follow?aggregate=project`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
  });
  assert.equal(response.status, 200);
  let text = '';
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += value;
    }
  })();
  return { text: () => text, ended, cancel: () => reader.cancel().catch(() => {}) };
}

const within = <T>(ms: number, promise: Promise<T>, what: string) => Promise.race([
  promise, new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms).unref()),
]);

describe('events.follow: how long it lasts', () => {
  let server: ListeningBerth;
  let api: HttpClient;
  before(async () => {
    server = await listeningBerth();
    api = await signedIn(server);
  });
  after(() => server.stop());

  it('stops sending to a token revoked while it follows, and a long poll under it answers 401', async () => {
    const { token } = (await api.call('auth.login', ADMIN, { token: null })).body;
    const followed = await follow(api, token);
    const polled = api.call('events.follow', { aggregate: 'project', after: String(await server.berth.infrastructure.eventStore.head()) }, { token });
    await api.ok('project.create', { name: 'seen before' });
    while (!followed.text().includes('ProjectCreated')) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal((await polled).status, 200);
    // The stream's last check is under a second old: past it, the next event is checked again.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const late = api.call('events.follow', { aggregate: 'project', after: String(await server.berth.infrastructure.eventStore.head()) }, { token });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.equal((await api.call('auth.logout', {}, { token })).status, 200);
    const { projectId } = await api.ok('project.create', { name: 'created after the logout' });
    await within(5000, followed.ended, 'the revoked follower\'s stream to end');
    assert.ok(!followed.text().includes(projectId), 'a revoked token received an event');
    const lateAnswer = await late;
    assert.equal(lateAnswer.status, 401, JSON.stringify(lateAnswer.body));
  });
});

describe('events.follow: a stopping Berth', () => {
  it('ends its followers and stops, instead of waiting for them to hang up', async () => {
    const server = await listeningBerth();
    const api = await signedIn(server);
    const followers = await Promise.all([follow(api, api.token!), follow(api, api.token!)]);
    const polled = api.call('events.follow', { aggregate: 'project', after: String(await server.berth.infrastructure.eventStore.head()) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await within(5000, server.stop(), 'stopping Berth with two followers and a long poll');
    await within(1000, Promise.all(followers.map((follower) => follower.ended)), 'the followers\' streams to end');
    assert.equal((await polled).status, 503);
  });
});
