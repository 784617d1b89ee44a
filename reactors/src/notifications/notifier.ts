// Sends each event to the webhooks subscribed to its type: a POST of the recorded event (its
// secrets still sealed), signed with HMAC-SHA256 over the body with the subscription's secret,
// retried with back-off; every attempt is recorded in the log. A delivery already ended in the
// log is not sent again, so a restart (and the bus's redelivery) doubles nothing it recorded.
import { createHmac } from 'node:crypto';
import type { RecordedEvent } from '@berth/shared/events/event';
import { deliveryAggregate, type Attempt, type Delivery } from '@berth/shared/domain/notification/delivery';
import type { Subscription } from '@berth/shared/domain/notification/subscription';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { load } from '@berth/shared/runtime/execute';
import type { Reactor } from '../runtime/reactor.ts';
import { reporter } from '../runtime/report.ts';

export const SIGNATURE_HEADER = 'x-berth-signature';
/** Notifications about notifications would feed themselves. */
const SILENT = ['delivery-', 'subscription-'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const signatureOf = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

async function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<Pick<Attempt, 'status' | 'ok' | 'reason'>> {
  try {
    const response = await fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return { status: response.status, ok, reason: ok ? null : `answered HTTP ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return { status: null, ok: false, reason: timedOut ? `no answer within ${timeoutMs} ms` : `unreachable: ${(error as Error).cause ?? (error as Error).message}` };
  }
}

export function notifier(infra: Infrastructure): Reactor {
  const { eventStore, readStore, secrets, clock, config } = infra;
  const report = reporter(infra);
  const delays = config.notifyRetryMs;

  async function deliver(subscription: Subscription, event: RecordedEvent): Promise<void> {
    const deliveryId = `${subscription.subscriptionId}.${event.id}`;
    const { state } = await load(eventStore, deliveryAggregate, deliveryId);
    const done = (state as Delivery | null)?.attempts.length ?? 0;
    if (state && (state as Delivery).status !== 'pending') return;
    const body = JSON.stringify(event);
    const headers = {
      'content-type': 'application/json', 'x-berth-event': event.type, 'x-berth-delivery': deliveryId,
      [SIGNATURE_HEADER]: signatureOf(secrets.open(subscription.secret), body),
    };
    for (let attempt = done + 1; attempt <= delays.length + 1; attempt++) {
      if (attempt > 1) await sleep(delays[attempt - 2]!);
      const outcome = await post(subscription.url, body, headers, config.notifyTimeoutMs);
      await report(deliveryAggregate, deliveryId, {
        type: 'RecordAttempt',
        data: {
          deliveryId, subscriptionId: subscription.subscriptionId, eventId: event.id, eventType: event.type,
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
        .map((subscription) => deliver(subscription, event)));
    },
  };
}
