// Sends each event to the webhooks subscribed to its type: a POST of the recorded event (its
// secrets still sealed, its hidden fields left out), signed with HMAC-SHA256 over the body with the
// subscription's secret, retried with back-off; every attempt is recorded in the log. A delivery
// already ended in the log is not sent again, so a restart (and the bus's redelivery) doubles
// nothing it recorded. The subscription is read again before each attempt: one removed (or no
// longer taking the event type) ends the delivery, and a changed URL or secret is used at once.
// The back-off is waited out from the last attempt the log records: a stop ends the wait at once
// (the delivery stays pending in the log), and the next start takes the delivery up again, waiting
// only what is left of it, whether the process stopped or was killed.
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
import { unfinishedDeliveries } from './unfinished.ts';

export const SIGNATURE_HEADER = 'x-berth-signature';
/** Notifications about notifications would feed themselves. */
const SILENT = ['delivery-', 'subscription-'];

/** Waits `ms`; false when `signal` ended the wait first. */
const waited = (ms: number, signal: AbortSignal) => new Promise<boolean>((resolve) => {
  if (signal.aborted) return resolve(false);
  const stop = () => { clearTimeout(timer); resolve(false); };
  const timer = setTimeout(() => { signal.removeEventListener('abort', stop); resolve(true); }, ms);
  signal.addEventListener('abort', stop, { once: true });
});

export const signatureOf = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export function notifier(infra: Infrastructure): Reactor {
  const { eventStore, readStore, secrets, clock, config } = infra;
  const report = reporter(infra);
  const delays = config.notifyRetryMs;
  /** The wait before attempt `n` (2 or more); past the configured waits (they were shortened), the last one. */
  const backoffBefore = (attempt: number) => delays[Math.min(attempt - 2, delays.length - 1)] ?? 0;
  const stopping = new AbortController();
  /** Deliveries under way in this process, by id: a redelivered event and the start's resumption join the one running. */
  const running = new Map<string, Promise<void>>();
  /** Everything of this reactor's that a stop waits for. */
  const busy = new Set<Promise<unknown>>();
  const tracked = <T>(work: Promise<T>): Promise<T> => {
    busy.add(work);
    void work.catch(() => {}).finally(() => busy.delete(work));
    return work;
  };

  const current = async (subscriptionId: string) =>
    (await load(eventStore, subscriptionAggregate, subscriptionId)).state as Subscription | null;

  async function attempts(deliveryId: string, subscriptionId: string, event: RecordedEvent): Promise<void> {
    const { state } = await load(eventStore, deliveryAggregate, deliveryId);
    const delivery = state as Delivery | null;
    if (delivery && delivery.status !== 'pending') return;
    let lastAt = delivery?.attempts.at(-1)?.at ?? null;
    const body = notificationBodyOf(event);
    for (let attempt = (delivery?.attempts.length ?? 0) + 1; ; attempt++) {
      if (lastAt !== null) {
        // What is left of the back-off since the last attempt recorded (all of it unless a stop or a crash came between).
        const backoff = backoffBefore(attempt);
        const left = Math.min(backoff, Date.parse(lastAt) + backoff - clock.now().getTime());
        if (!(await waited(Math.max(0, left), stopping.signal))) return; // pending in the log: the next start resumes it
      } else if (stopping.signal.aborted) {
        // Nothing in the log to resume from: the bus must hand the event out again.
        throw new Error('the notifier stopped before the first attempt');
      }
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
      const at = clock.now().toISOString();
      const last = attempt >= delays.length + 1;
      const recorded = await report(deliveryAggregate, deliveryId, {
        type: 'RecordAttempt',
        data: { deliveryId, subscriptionId, eventId: event.id, eventType: event.type, attempt: { attempt, at, ...outcome }, last },
      }, event);
      // Nothing recorded: the delivery ended meanwhile, or another process recorded this attempt and goes on with it.
      if (outcome.ok || last || recorded.position === 0) return;
      lastAt = at;
    }
  }

  function deliver(subscriptionId: string, event: RecordedEvent): Promise<void> {
    const deliveryId = `${subscriptionId}.${event.id}`;
    let delivery = running.get(deliveryId);
    if (!delivery) {
      delivery = attempts(deliveryId, subscriptionId, event).finally(() => running.delete(deliveryId));
      running.set(deliveryId, delivery);
    }
    return delivery;
  }

  async function resumeUnfinished(): Promise<void> {
    for await (const { delivery, event } of unfinishedDeliveries(eventStore, readStore, stopping.signal)) {
      void tracked(deliver(delivery.subscriptionId, event)).catch((error: unknown) =>
        console.error(`notifications: delivery ${delivery.deliveryId} failed to resume; the next start tries again:`, error));
    }
  }

  return {
    name: 'notifications',
    async start() {
      void tracked(resumeUnfinished()).catch((error: unknown) => console.error('notifications: unfinished deliveries were not resumed:', error));
    },
    async stop() {
      stopping.abort();
      while (busy.size > 0) await Promise.allSettled([...busy]);
    },
    handle(event) {
      if (SILENT.some((prefix) => event.stream.startsWith(prefix))) return Promise.resolve();
      return tracked((async () => {
        const subscriptions = (await readStore.all('subscription')) as unknown as Subscription[];
        await Promise.all(subscriptions.filter((subscription) => subscription.eventTypes.includes(event.type))
          .map((subscription) => deliver(subscription.subscriptionId, event)));
      })());
    },
  };
}
