// Sends one queued delivery: a POST of the recorded event (its secrets still sealed, its hidden
// fields left out), signed with HMAC-SHA256 over the body with the subscription's secret, retried
// with back-off; every attempt is recorded in the log. A delivery already ended in the log is not
// sent again, so a restart (and the bus's redelivery) doubles nothing it recorded. The subscription
// is read again before each attempt: one removed (or no longer taking the event type) ends the
// delivery, and a changed URL or secret is used at once. The back-off is waited out from the last
// attempt the log records: a stop ends the wait at once (the delivery stays pending in the log), and
// the next start takes the delivery up again, waiting only what is left of it.
import { createHmac } from 'node:crypto';
import type { RecordedEvent } from '@berth/shared/events/event';
import { deliveryAggregate, type Delivery } from '@berth/shared/domain/notification/delivery';
import { standingOf, subscriptionAggregate, type Subscription } from '@berth/shared/domain/notification/subscription';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { load } from '@berth/shared/runtime/execute';
import type { Report } from '../runtime/report.ts';
import { notificationBodyOf } from './body.ts';
import { post, type Outcome } from './post.ts';
import type { Queued } from './queue.ts';

export const SIGNATURE_HEADER = 'x-berth-signature';

export const signatureOf = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** Waits `ms`; false when `signal` ended the wait first. */
const waited = (ms: number, signal: AbortSignal) => new Promise<boolean>((resolve) => {
  if (signal.aborted) return resolve(false);
  const stop = () => { clearTimeout(timer); resolve(false); };
  const timer = setTimeout(() => { signal.removeEventListener('abort', stop); resolve(true); }, ms);
  signal.addEventListener('abort', stop, { once: true });
});

export interface SendDeps {
  readonly infra: Pick<Infrastructure, 'eventStore' | 'secrets' | 'clock' | 'config'>;
  readonly report: Report;
  /** Ends the back-off waits, and keeps further attempts from starting. */
  readonly stopping: AbortSignal;
  /** Where every POST takes its turn: the receivers of all subscriptions share a bounded number of connections. */
  readonly posting: <T>(work: () => Promise<T>) => Promise<T>;
}

/** The sender of queued deliveries, resolving once the delivery ended or the stop left it pending in the log. */
export function sender({ infra, report, stopping, posting }: SendDeps): (item: Queued) => Promise<void> {
  const { eventStore, secrets, clock, config } = infra;
  const delays = config.notifyRetryMs;
  /** The wait before attempt `n` (2 or more); past the configured waits (they were shortened), the last one. */
  const backoffBefore = (attempt: number) => delays[Math.min(attempt - 2, delays.length - 1)] ?? 0;
  /** What is left of the back-off since the last attempt recorded (all of it unless a stop or a crash came between). */
  const leftBefore = (attempt: number, lastAt: string) => {
    const backoff = backoffBefore(attempt);
    return Math.max(0, Math.min(backoff, Date.parse(lastAt) + backoff - clock.now().getTime()));
  };

  async function attemptOnce(item: Queued, attempt: number, body: string): Promise<{ outcome: Outcome; at: string } | 'ended'> {
    const { deliveryId, subscriptionId, event } = item;
    const standing = standingOf((await load(eventStore, subscriptionAggregate, subscriptionId)).state as Subscription | null, event.type);
    if (!standing.takes) {
      await report(deliveryAggregate, deliveryId, { type: 'EndDelivery', data: { deliveryId, reason: standing.reason } }, event);
      return 'ended';
    }
    const headers = {
      'content-type': 'application/json', 'x-berth-event': event.type, 'x-berth-delivery': deliveryId,
      [SIGNATURE_HEADER]: signatureOf(secrets.open(standing.subscription.secret), body),
    };
    const outcome = await posting(() => post(standing.subscription.url, body, headers, config.notifyTimeoutMs));
    return { outcome, at: clock.now().toISOString() };
  }

  const record = (item: Queued, event: RecordedEvent, attempt: number, outcome: Outcome, at: string) => report(deliveryAggregate, item.deliveryId, {
    type: 'RecordAttempt',
    data: {
      deliveryId: item.deliveryId, subscriptionId: item.subscriptionId, eventId: event.id, eventType: event.type,
      attempt: { attempt, at, ...outcome }, last: attempt >= delays.length + 1,
    },
  }, event);

  return async (item) => {
    const delivery = (await load(eventStore, deliveryAggregate, item.deliveryId)).state as Delivery | null;
    if (delivery && delivery.status !== 'pending') return;
    let lastAt = delivery?.attempts.at(-1)?.at ?? null;
    const body = notificationBodyOf(item.event);
    for (let attempt = (delivery?.attempts.length ?? 0) + 1; ; attempt++) {
      // A stop leaves the delivery pending in the log (queued, or between two attempts): the next start resumes it.
      if (lastAt !== null && !(await waited(leftBefore(attempt, lastAt), stopping))) return;
      if (stopping.aborted) return;
      const made = await attemptOnce(item, attempt, body);
      if (made === 'ended') return;
      const recorded = await record(item, item.event, attempt, made.outcome, made.at);
      // Nothing recorded: the delivery ended meanwhile, or another process recorded this attempt and goes on with it.
      if (made.outcome.ok || attempt >= delays.length + 1 || recorded.position === 0) return;
      lastAt = made.at;
    }
  };
}
