import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryBus } from '@berth/shared/adapters/bus/memory-bus';
import { NatsBus } from '@berth/shared/adapters/bus/nats-bus';
import { startNats, type NatsServer } from '../support/nats.ts';
import { busConformance, collector, event } from './bus-conformance.ts';

busConformance('in-process', async () => new MemoryBus());

let nats: NatsServer;
before(async () => { nats = await startNats(); });
after(async () => { await nats.stop(); });

busConformance('NATS JetStream', () => NatsBus.connect(nats.url));

describe('NATS JetStream bus across a server restart', () => {
  it('keeps published events and the consumer position through a restart of nats-server', async () => {
    const bus = await NatsBus.connect(nats.url);
    const got = collector();
    const consumer = await bus.consume('restart_test', got.handle, { aggregate: 'restart' });
    const first = event('restart');
    await bus.publish(first);
    await got.until(1);
    await nats.restart();
    const second = event('restart');
    // Publishing while the client reconnects may fail: the relay retries, and the id keeps it single.
    for (let tries = 0; ; tries++) {
      try { await bus.publish(second); break; } catch (error) { if (tries > 50) throw error; await new Promise((r) => setTimeout(r, 200)); }
    }
    await bus.publish(second);
    await got.until(2, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(got.deliveries.map((d) => d.event.id), [first.id, second.id]);
    await consumer.stop();
    await bus.close();
  });
});
