// The decisions behind ending a delivery early: whether a subscription as it stands now still takes
// an event, a delivery that ends only while it is still retrying, and each attempt recorded once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Sealed } from '@berth/shared/crypto/secrets';
import { fold } from '@berth/shared/domain/aggregate';
import { deliveryAggregate, type DeliveryEvent } from '@berth/shared/domain/notification/delivery';
import { standingOf, type Subscription } from '@berth/shared/domain/notification/subscription';

const subscription: Subscription = {
  subscriptionId: 's1', url: 'https://ci.example.test/hook', eventTypes: ['ProjectCreated'], secret: 'enc:v1:a.b.c' as Sealed, createdAt: '2026-01-01T00:00:00.000Z',
};
const attempted = (ok: boolean): DeliveryEvent => ({
  type: 'DeliveryAttempted',
  data: {
    deliveryId: 's1.e1', subscriptionId: 's1', eventId: 'e1', eventType: 'ProjectCreated',
    attempt: { attempt: 1, at: '2026-01-01T00:00:01.000Z', status: ok ? 204 : 503, ok, reason: ok ? null : 'answered HTTP 503' },
  },
});
const end = { type: 'EndDelivery' as const, data: { deliveryId: 's1.e1', reason: 'the subscription was removed' } };

describe('ending a delivery', () => {
  it('takes the event while subscribed to its type, with the URL and secret as they are now', () => {
    assert.deepEqual(standingOf(subscription, 'ProjectCreated'), { takes: true, subscription });
  });

  it('ends for a removed subscription and for one no longer taking the type, saying why', () => {
    assert.deepEqual(standingOf(null, 'ProjectCreated'), { takes: false, reason: 'the subscription was removed' });
    assert.deepEqual(standingOf({ ...subscription, eventTypes: ['ProjectRemoved'] }, 'ProjectCreated'),
      { takes: false, reason: 'the subscription no longer takes ProjectCreated' });
  });

  it('fails a retrying delivery with the reason, and leaves an ended or never attempted one alone', () => {
    const retrying = fold(deliveryAggregate, [attempted(false)]);
    assert.deepEqual(deliveryAggregate.decide(end, retrying), [{ type: 'DeliveryFailed', data: end.data }]);
    assert.equal(fold(deliveryAggregate, [{ type: 'DeliveryFailed', data: end.data }], retrying)?.status, 'failed');
    const delivered = fold(deliveryAggregate, [attempted(true), { type: 'DeliverySucceeded', data: { deliveryId: 's1.e1' } }]);
    assert.deepEqual(deliveryAggregate.decide(end, delivered), []);
    assert.deepEqual(deliveryAggregate.decide(end, null), []);
  });

  it('records an attempt once: the same attempt made again (after a crash, by a second process) appends nothing', () => {
    const retrying = fold(deliveryAggregate, [attempted(false)]);
    const { attempt, ...delivery } = (attempted(false) as Extract<DeliveryEvent, { type: 'DeliveryAttempted' }>).data;
    const again = { type: 'RecordAttempt' as const, data: { ...delivery, attempt: { ...attempt, at: '2026-01-01T00:00:05.000Z', status: 204, ok: true, reason: null }, last: false } };
    assert.deepEqual(deliveryAggregate.decide(again, retrying), []);
    const next = { ...again, data: { ...again.data, attempt: { ...again.data.attempt, attempt: 2 } } };
    assert.deepEqual(deliveryAggregate.decide(next, retrying).map((event) => event.type), ['DeliveryAttempted', 'DeliverySucceeded']);
  });
});
