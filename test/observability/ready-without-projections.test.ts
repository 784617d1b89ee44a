// An API process whose read models no projection has filled yet (the projections role elsewhere,
// not started): /ready must say so, or a load balancer sends it traffic it answers from nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listeningBerth } from '../support/http.ts';

describe('readiness of an API process whose projections never ran', () => {
  it('answers 503 naming the read models once more events than the bound were never applied', async () => {
    const server = await listeningBerth({ config: { roles: ['api'], projectionWaitMs: 100, readyMaxLag: 1 } });
    try {
      const api = server.client;
      api.token = server.setupToken();
      await api.call('auth.createAdmin', { email: 'ready@berth.test', password: 'a long enough password' });
      await api.call('auth.login', { email: 'ready@berth.test', password: 'a long enough password' }, { token: null });
      assert.ok(await server.berth.infrastructure.eventStore.head() > 1, 'the log holds events');
      assert.deepEqual([...await server.berth.infrastructure.readStore.checkpoints()], [], 'no projection applied any');
      const ready = await api.raw('/ready');
      assert.equal(ready.status, 503, JSON.stringify(ready.body));
      assert.equal(ready.body.checks.projections.ok, false);
      assert.match(ready.body.checks.projections.reason, /read models are \d+ events behind/);
    } finally {
      await server.stop();
    }
  });

  it('answers 503 when few events were never applied but the oldest of them long ago: a projections role that stopped', async () => {
    const server = await listeningBerth({ config: { roles: ['api'], projectionWaitMs: 100, readyMaxLag: 1000, readyMaxLagSeconds: 1 } });
    try {
      server.client.token = server.setupToken();
      await server.client.call('auth.createAdmin', { email: 'late@berth.test', password: 'a long enough password' });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const ready = await server.client.raw('/ready');
      assert.equal(ready.status, 503, JSON.stringify(ready.body));
      assert.match(ready.body.checks.projections.reason, /^read models are \d+ events behind, the oldest from \d+ s ago \(bound 1 s\)$/);
    } finally {
      await server.stop();
    }
  });
});
