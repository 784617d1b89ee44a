// The line of deliveries: one subscription's stalled deliveries hold back no other subscription,
// one stream's go one at a time in log order, and a subscription runs only a few at once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '@berth/shared/events/event';
import { ACTIVE_PER_SUBSCRIPTION, deliveryQueue, limiter, type Queued } from './queue.ts';

const eventAt = (position: number, stream: string): RecordedEvent => ({
  id: `e${position}`, type: 'ProjectUpdated', data: {}, stream, revision: position, position,
  metadata: { actorId: null, correlationId: 'c', causationId: null, occurredAt: '2026-01-01T00:00:00.000Z', schemaVersion: 1 },
});
const item = (subscriptionId: string, position: number, stream = `project-${position}`): Queued =>
  ({ deliveryId: `${subscriptionId}.e${position}`, subscriptionId, event: eventAt(position, stream) });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the delivery queue', () => {
  it('sends another subscription\'s deliveries while one subscription\'s never end', async () => {
    const sent: string[] = [];
    const queue = deliveryQueue(async ({ deliveryId, subscriptionId }) => {
      sent.push(deliveryId);
      if (subscriptionId === 'dead') await new Promise(() => {});
    });
    for (let position = 1; position <= 30; position++) queue.add(item('dead', position));
    for (let position = 31; position <= 60; position++) queue.add(item('healthy', position));
    await tick();
    assert.equal(sent.filter((id) => id.startsWith('dead.')).length, ACTIVE_PER_SUBSCRIPTION);
    assert.equal(sent.filter((id) => id.startsWith('healthy.')).length, 30);
  });

  it('sends one stream\'s deliveries one at a time, in log order even when added out of it', async () => {
    const sent: number[] = [];
    const ends: Array<() => void> = [];
    const queue = deliveryQueue(({ event }) => new Promise<void>((resolve) => { sent.push(event.position); ends.push(resolve); }));
    for (const position of [1, 3, 2]) queue.add(item('s', position, 'project-a'));
    queue.add(item('s', 1, 'project-a')); // a redelivery joins the one queued
    await tick();
    assert.deepEqual(sent, [1]);
    ends.shift()!();
    await tick();
    assert.deepEqual(sent, [1, 2]);
    ends.shift()!();
    await tick();
    assert.deepEqual(sent, [1, 2, 3]);
    assert.equal(queue.size(), 1);
  });

  it('starts nothing once closed', async () => {
    const sent: string[] = [];
    const queue = deliveryQueue(async ({ deliveryId }) => { sent.push(deliveryId); });
    queue.close();
    queue.add(item('s', 1));
    await tick();
    assert.deepEqual(sent, []);
  });

  it('runs at most the limit\'s number of works at once', async () => {
    const limit = limiter(2);
    let running = 0;
    let most = 0;
    await Promise.all(Array.from({ length: 6 }, () => limit(async () => {
      most = Math.max(most, ++running);
      await tick();
      running--;
    })));
    assert.equal(most, 2);
  });
});
