// The event store conformance suite on EventStoreDB: always over gRPC against the test server
// built on the client's own service definitions; also against a real server when EVENTSTORE_URL is set.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { EventStoreDbEventStore } from '@berth/shared/adapters/eventstoredb/event-store';
import type { NewEvent, RecordedEvent } from '@berth/shared/events/event';
import { newId } from '@berth/shared/ids';
import { UnavailableError } from '@berth/shared/ports/unavailable';
import { EventStoreDbTestServer } from '../support/eventstoredb-server.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';
import { eventStoreConformance } from './event-store-conformance.ts';

const servers: EventStoreDbTestServer[] = [];
const startServer = async (server = new EventStoreDbTestServer(), port = 0) => {
  servers.push(server);
  return server.start(port);
};
after(async () => { for (const server of servers) await server.stop(); });

eventStoreConformance('eventstoredb (gRPC test server)', async () => EventStoreDbEventStore.connect((await startServer()).url));

if (process.env.EVENTSTORE_URL) {
  eventStoreConformance('eventstoredb (real server)', () => EventStoreDbEventStore.connect(process.env.EVENTSTORE_URL!));
}

const event = (): NewEvent => ({
  id: newId(), type: 'Happened', data: { at: Date.now() },
  metadata: { actorId: null, correlationId: newId(), causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
});

describe('eventstoredb adapter over the wire', () => {
  it('writes a retried append once: event ids are stable, so the server recognises the retry', async () => {
    const store = await EventStoreDbEventStore.connect((await startServer()).url);
    try {
      const batch = [event(), event()];
      const first = await store.append('retried-1', batch, 'no_stream');
      const retry = await store.append('retried-1', batch, 'no_stream');
      assert.deepEqual(retry, first);
      assert.deepEqual((await store.readStream('retried-1')).events.map((e) => e.id), batch.map((e) => e.id));
    } finally {
      await store.close();
    }
  });

  it('fails with UnavailableError while the server is down, and works again once it is back', async () => {
    const server = await startServer();
    const store = await EventStoreDbEventStore.connect(server.url);
    try {
      await store.append('outage-1', [event()], 'no_stream');
      await server.stop();
      await assert.rejects(store.append('outage-1', [event()], 0), UnavailableError);
      await startServer(new EventStoreDbTestServer(server.log), server.port);
      let result;
      for (let attempt = 0; !result; attempt++) {
        result = await store.append('outage-1', [event()], 0).catch((error) => {
          if (!(error instanceof UnavailableError) || attempt > 50) throw error;
          return new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100));
        });
      }
      assert.equal(result.revision, 1);
    } finally {
      await store.close();
    }
  });

  it('fails a read with UnavailableError within its deadline while the server answers nothing, and reads again once it does', async () => {
    const server = await startServer();
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: server.port });
    const store = await EventStoreDbEventStore.connect(`esdb://${proxy.address}?tls=false`);
    try {
      await store.append('frozen-1', [event()], 'no_stream');
      proxy.stall();
      const started = Date.now();
      const outcome = await Promise.race([
        store.readAll(0, 10).then(() => 'read', (error: unknown) => error),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 20 s'), 20_000).unref()),
      ]);
      assert.ok(outcome instanceof UnavailableError, String(outcome));
      assert.ok(Date.now() - started < 15_000);
      proxy.restore();
      assert.equal((await store.readStream('frozen-1')).events.length, 1);
    } finally {
      proxy.restore();
      await store.close();
      await proxy.stop();
    }
  });

  it('resubscribes after the connection drops, from the last position handled, losing and doubling nothing', async () => {
    const server = await startServer();
    const store = await EventStoreDbEventStore.connect(server.url);
    const seen: RecordedEvent[] = [];
    const logged = console.error;
    console.error = () => {}; // the supervisor logs the dropped connection; expected here
    const subscription = store.subscribe(0, async (batch) => { seen.push(...batch); });
    const until = async (count: number) => {
      for (let i = 0; seen.length < count; i++) {
        assert.ok(i < 200, `delivered ${seen.length} of ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    try {
      for (let i = 0; i < 5; i++) await store.append(`drop-${i}`, [event()], 'no_stream');
      await until(5);
      await server.stop();
      await startServer(new EventStoreDbTestServer(server.log), server.port);
      for (let i = 5; i < 10; i++) {
        for (let attempt = 0; ; attempt++) {
          try {
            await store.append(`drop-${i}`, [event()], 'no_stream');
            break;
          } catch (error) {
            if (!(error instanceof UnavailableError) || attempt > 50) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      }
      await until(10);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(seen.map((e) => e.stream), Array.from({ length: 10 }, (_, i) => `drop-${i}`));
    } finally {
      await subscription.stop();
      await store.close();
      console.error = logged;
    }
  });
});
