// Sends each event to the webhooks subscribed to its type: a POST of the recorded event (its
// secrets still sealed, its hidden fields left out), signed with HMAC-SHA256 over the body with the
// subscription's secret, retried with back-off; every attempt is recorded in the log. A delivery
// already ended in the log is not sent again, so a restart (and the bus's redelivery) doubles
// nothing it recorded. The subscription is read again before each attempt: one removed (or no
// longer taking the event type) ends the delivery, and a changed URL or secret is used at once.
import { createHmac } from 'node:crypto';
import type { RecordedEvent } from '@berth/shared/events/event';
import { deliveryAggregate, type Delivery } from '@berth/shared/domain/notification/delivery';
import { standingOf, subscriptionAggregate, type Subscription } from '@berth/shared/domain/notification/subscription';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { load } from '@berth/shared/runtime/execute';
import type { Reactor } from '../runtime/reactor.ts';
import { reporter } from '../runtime/report.ts';
import { notificationBodyOf } from './body.ts';
import { post } from './post.ts';

export const SIGNATURE_HEADER = 'x-berth-signature';
/** Notifications about notifications would feed themselves. */
const SILENT = ['delivery-', 'subscription-'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const signatureOf = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export function notifier(infra: Infrastructure): Reactor {
  const { eventStore, readStore, secrets, clock, config } = infra;
  const report = reporter(infra);
  const delays = config.notifyRetryMs;

  const current = async (subscriptionId: string) =>
    (await load(eventStore, subscriptionAggregate, subscriptionId)).state as Subscription | null;

  async function deliver(subscriptionId: string, event: RecordedEvent): Promise<void> {
    const deliveryId = `${subscriptionId}.${event.id}`;
    const { state } = await load(eventStore, deliveryAggregate, deliveryId);
    const done = (state as Delivery | null)?.attempts.length ?? 0;
    if (state && (state as Delivery).status !== 'pending') return;
    const body = notificationBodyOf(event);
    for (let attempt = done + 1; attempt <= delays.length + 1; attempt++) {
      if (attempt > 1) await sleep(delays[attempt - 2]!);
      const standing = standingOf(await current(subscriptionId), event.type);
      if (!standing.takes) {
        await report(deliveryAggregate, deliveryId, { type: 'EndDelivery', data: { deliveryId, reason: standing.reason } }, event);
        return;
      }
      const { subscription } = standing;
      const headers = {
        'content-type': 'application/json', 'x-berth-event': event.type, 'x-berth-delivery': deliveryId,
        [SIGNATURE_HEADER]: signatureOf(secrets.open(subscription.secret), body),
      };
      const outcome = await post(subscription.url, body, headers, config.notifyTimeoutMs);
      await report(deliveryAggregate, deliveryId, {
        type: 'RecordAttempt',
        data: {
          deliveryId, subscriptionId, eventId: event.id, eventType: event.type,
          attempt: { attempt, at: clock.now().toISOString(), ...outcome }, last: attempt === delays.length + 1,
        },
      }, event);
      if (outcome.ok) return;
    }
  }

  return {
    name: 'notifications',
    async handle(event) {
      if (SILENT.some((prefix) => event.stream.startsWith(prefix))) return;
      const subscriptions = (await readStore.all('subscription')) as unknown as Subscription[];
      await Promise.all(subscriptions.filter((subscription) => subscription.eventTypes.includes(event.type))
        .map((subscription) => deliver(subscription.subscriptionId, event)));
    },
  };
}
