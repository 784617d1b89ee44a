// An export is a streamed answer like a follow: a token revoked while it runs stops what it
// receives (see stream-lifetime.ts), instead of the rest of the log reaching a signed-out caller.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listeningBerth, signInFirstAdmin, type HttpClient, type ListeningBerth } from '../support/http.ts';

const ADMIN = { email: 'exporter@berth.test', password: 'a long enough password' };
const PROJECTS = 400;

describe('events.export: how long it lasts', () => {
  let server: ListeningBerth;
  let api: HttpClient;
  before(async () => {
    server = await listeningBerth();
    api = await signInFirstAdmin(server, ADMIN);
    // About 20 MB of history: more than the connection's buffers hold before the client reads.
    const description = 'x'.repeat(50_000);
    for (let index = 0; index < PROJECTS; index++) await api.ok('project.create', { name: `exported ${index}`, description });
  });
  after(() => server.stop());

  it('stops sending to a token revoked while it exports', async () => {
    const { token } = (await api.call('auth.login', ADMIN, { token: null })).body;
    const response = await fetch(`${api.baseUrl}/api/events.export?type=ProjectCreated`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = (await reader.read()).value ?? '';
    assert.equal((await api.call('auth.logout', {}, { token })).status, 200);
    // The caller is checked again once its last check is a second old.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) break;
      text += value;
    }
    const lines = text.split('\n').filter((line) => line.startsWith('{')).length;
    assert.ok(lines < PROJECTS, `a revoked token received all ${lines} events of the export`);
  });
});
