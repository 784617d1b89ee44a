// An EventStoreDB that stops answering without closing anything (a frozen process, a lost host):
// /ready must still answer, 503 naming the event store, within a few seconds, so a load balancer
// takes the process out instead of waiting on it; once the server answers again, so does /ready.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildServer } from '@berth/command-api/server';
import { configFrom } from '@berth/shared/runtime/config';
import { openInfrastructure } from '@berth/shared/runtime/infrastructure';
import { EventStoreDbTestServer } from '../support/eventstoredb-server.ts';
import { eventually } from '../support/role-process.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';

describe('readiness while the event store does not answer', () => {
  it('answers 503 naming the event store within 5 s, and 200 again once it answers', async () => {
    const server = await new EventStoreDbTestServer().start();
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: server.port });
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-ready-frozen-'));
    const infra = await openInfrastructure(configFrom({
      BERTH_DATA_DIR: dataDir, BERTH_EVENTSTORE_URL: `esdb://${proxy.address}?tls=false`, BERTH_INSTANCE_KEY: randomBytes(32).toString('base64'),
    }, { roles: ['api'], logLevel: 'silent' }));
    const app = buildServer(infra, { logger: false });
    try {
      await app.ready();
      assert.equal((await app.inject({ method: 'GET', url: '/ready' })).statusCode, 200);
      proxy.stall();
      const started = Date.now();
      const ready = await Promise.race([
        app.inject({ method: 'GET', url: '/ready' }),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000).unref()),
      ]);
      assert.ok(ready, '/ready answered nothing within 15 s');
      assert.ok(Date.now() - started < 5000, `/ready took ${Date.now() - started} ms`);
      assert.equal(ready.statusCode, 503);
      const body = ready.json() as { checks: { eventStore: { ok: boolean; reason?: string } } };
      assert.equal(body.checks.eventStore.ok, false);
      assert.match(body.checks.eventStore.reason ?? '', /the event store did not answer within 3000 ms/);
      proxy.restore();
      await eventually(async () => (await app.inject({ method: 'GET', url: '/ready' })).statusCode === 200, 30_000, '/ready answers 200 again');
    } finally {
      proxy.restore();
      await app.close();
      await infra.close();
      await proxy.stop();
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
