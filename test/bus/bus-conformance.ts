// What every Bus adapter must do, whatever carries the events.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { newId } from '@berth/shared/ids';
import type { RecordedEvent } from '@berth/shared/events/event';
import type { Bus, Delivery } from '@berth/shared/ports/bus';

let position = 0;
export const event = (aggregate: string, type = 'Happened'): RecordedEvent => ({
  id: newId(), type, data: { n: ++position }, stream: `${aggregate}-${newId()}`, revision: 0, position,
  metadata: { actorId: null, correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
});

/** Resolves once `count` deliveries arrived, answering them. */
export function collector() {
  const deliveries: Delivery[] = [];
  let waiter: (() => void) | null = null;
  let wanted = Infinity;
  return {
    deliveries,
    handle: async (delivery: Delivery) => {
      deliveries.push(delivery);
      if (deliveries.length >= wanted) waiter?.();
    },
    until: (count: number, ms = 10_000) => new Promise<Delivery[]>((resolve, reject) => {
      if (deliveries.length >= count) return resolve(deliveries);
      wanted = count;
      const timer = setTimeout(() => reject(new Error(`${deliveries.length} of ${count} deliveries after ${ms} ms`)), ms);
      waiter = () => { clearTimeout(timer); resolve(deliveries); };
    }),
  };
}

const name = () => `test_${newId().replace(/[^A-Za-z0-9]/g, '')}`;

export function busConformance(label: string, open: () => Promise<Bus>): void {
  describe(`bus conformance: ${label}`, () => {
    const buses: Bus[] = [];
    const fresh = async () => { const bus = await open(); buses.push(bus); return bus; };
    after(async () => { for (const bus of buses) await bus.close(); });

    it('delivers every published event once, in order, with its whole envelope', async () => {
      const bus = await fresh();
      const got = collector();
      const consumer = await bus.consume(name(), got.handle, { aggregate: 'ordered' });
      const sent = Array.from({ length: 20 }, () => event('ordered'));
      for (const e of sent) await bus.publish(e);
      const deliveries = await got.until(20);
      assert.deepEqual(deliveries.map((d) => d.event), sent);
      assert.ok(deliveries.every((d) => d.attempt === 1));
      await consumer.stop();
    });

    it('drops an event published twice with the same id', async () => {
      const bus = await fresh();
      const got = collector();
      const consumer = await bus.consume(name(), got.handle, { aggregate: 'twice' });
      const once = event('twice');
      await bus.publish(once);
      await bus.publish(once);
      const marker = event('twice');
      await bus.publish(marker);
      await got.until(2);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(got.deliveries.map((d) => d.event.id), [once.id, marker.id]);
      await consumer.stop();
    });

    it('hands a consumer only the events of its aggregate', async () => {
      const bus = await fresh();
      const got = collector();
      const consumer = await bus.consume(name(), got.handle, { aggregate: 'mine' });
      await bus.publish(event('theirs'));
      const mine = event('mine');
      await bus.publish(mine);
      await got.until(1);
      assert.deepEqual(got.deliveries.map((d) => d.event.id), [mine.id]);
      await consumer.stop();
    });

    it('redelivers an event whose handler failed, with a growing attempt count', async () => {
      const bus = await fresh();
      const attempts: number[] = [];
      const consumer = await bus.consume(name(), async ({ attempt }) => {
        attempts.push(attempt);
        if (attempt < 3) throw new Error('not yet');
      }, { aggregate: 'flaky' });
      await bus.publish(event('flaky'));
      const deadline = Date.now() + 10_000;
      while (attempts.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(attempts, [1, 2, 3]);
      await consumer.stop();
    });

    it('a durable consumer resumes after a stop with what it had not received, not what it acknowledged', async () => {
      const bus = await fresh();
      const durable = name();
      const first = collector();
      const before = event('durable');
      let consumer = await bus.consume(durable, first.handle, { aggregate: 'durable' });
      await bus.publish(before);
      await first.until(1);
      await consumer.stop();
      const missed = event('durable');
      await bus.publish(missed);
      const second = collector();
      consumer = await bus.consume(durable, second.handle, { aggregate: 'durable' });
      await second.until(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(second.deliveries.map((d) => d.event.id), [missed.id]);
      await consumer.stop();
    });

    it('a consumer started after a publish still receives the event', async () => {
      const bus = await fresh();
      const early = event('late');
      await bus.publish(early);
      const got = collector();
      const consumer = await bus.consume(name(), got.handle, { aggregate: 'late' });
      await got.until(1);
      assert.equal(got.deliveries[0]!.event.id, early.id);
      await consumer.stop();
    });

    it('handles several events at once when asked to', async () => {
      const bus = await fresh();
      let active = 0;
      let peak = 0;
      let handled = 0;
      const consumer = await bus.consume(name(), async () => {
        peak = Math.max(peak, ++active);
        await new Promise((resolve) => setTimeout(resolve, 100));
        active--;
        handled++;
      }, { aggregate: 'parallel', concurrency: 4 });
      for (let i = 0; i < 8; i++) await bus.publish(event('parallel'));
      const deadline = Date.now() + 10_000;
      while (handled < 8 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(handled, 8);
      assert.ok(peak > 1 && peak <= 4, `peak ${peak}`);
      await consumer.stop();
    });

    it('a consumer\'s stop resolves once the handlers in flight have ended, so the stores they use can close after it', async () => {
      const bus = await fresh();
      let started = 0;
      let ended = 0;
      const consumer = await bus.consume(name(), async () => {
        started++;
        await new Promise((resolve) => setTimeout(resolve, 300));
        ended++;
      }, { aggregate: 'inflight', concurrency: 2 });
      await bus.publish(event('inflight'));
      await bus.publish(event('inflight'));
      const deadline = Date.now() + 10_000;
      while (started < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(started, 2);
      await consumer.stop();
      assert.equal(ended, 2, 'both handlers ended before the stop resolved');
    });
  });
}
