// Sends each event to the webhooks subscribed to its type. Handling an event only records, for each
// subscription that takes it, that a delivery is due (DeliveryQueued, listed pending at once), then
// lets the bus move on: the sending runs apart, one queue per subscription (see queue.ts, send.ts),
// so a dead or slow receiver holds back nothing but its own deliveries. A delivery queued in the
// log survives a crash: the next start finds it pending and sends it (at least once).
// A subscription is sent only events appended after it was created: the bus may hand out older
// ones again (the relay publishes again from its checkpoint after a crash).
import type { RecordedEvent } from '@berth/shared/events/event';
import { deliveryAggregate } from '@berth/shared/domain/notification/delivery';
import { isSendable } from '@berth/shared/domain/notification/sendable';
import { createdBefore, subscriptionAggregate, type Subscription } from '@berth/shared/domain/notification/subscription';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { load } from '@berth/shared/runtime/execute';
import type { Reactor } from '../runtime/reactor.ts';
import { reporter } from '../runtime/report.ts';
import { deliveryQueue, limiter, type Queued } from './queue.ts';
import { sender } from './send.ts';
import { unfinishedDeliveries } from './unfinished.ts';

export { SIGNATURE_HEADER, signatureOf } from './send.ts';

/** POSTs under way at once, over every subscription: bounds the connections and sockets a backlog opens. */
const POSTS_AT_ONCE = 32;

export function notifier(infra: Infrastructure): Reactor {
  const { eventStore, readStore, clock, config } = infra;
  const report = reporter(infra);
  const stopping = new AbortController();
  /** Everything of this reactor's that a stop waits for. */
  const busy = new Set<Promise<unknown>>();
  const tracked = <T>(work: Promise<T>): Promise<T> => {
    busy.add(work);
    void work.catch(() => {}).finally(() => busy.delete(work));
    return work;
  };
  const send = sender({ infra, report, stopping: stopping.signal, posting: limiter(POSTS_AT_ONCE) });
  const queue = deliveryQueue((item) => tracked(send(item)).catch((error: unknown) =>
    console.error(`notifications: delivery ${item.deliveryId} stopped; it stays pending and the next start takes it up:`, error)));
  /** Settles once the deliveries a previous process left are in line: those queued since come after them. */
  let resumed: Promise<void> = Promise.resolve();

  /** Creation positions of subscriptions whose read model predates them (projected before positions were kept), read once from the log. */
  const creations = new Map<string, number | undefined>();
  async function withCreation(subscription: Subscription): Promise<Subscription> {
    const { subscriptionId, createdAtPosition } = subscription;
    if (createdAtPosition !== undefined) return subscription;
    if (!creations.has(subscriptionId)) {
      const folded = (await load(eventStore, subscriptionAggregate, subscriptionId)).state as Subscription | null;
      creations.set(subscriptionId, folded?.createdAtPosition);
    }
    return { ...subscription, createdAtPosition: creations.get(subscriptionId) };
  }

  /** The subscriptions that take `event`: of its type, and created before it. */
  async function takersOf(event: RecordedEvent): Promise<Subscription[]> {
    // A subscription created before the event is in the read model once it reached the event's position.
    await readStore.waitFor(event.position, config.projectionWaitMs).catch(() => {});
    const ofType = ((await readStore.all(subscriptionAggregate.name)) as unknown as Subscription[])
      .filter((subscription) => subscription.eventTypes.includes(event.type));
    const known = await Promise.all(ofType.map(withCreation));
    return known.filter((subscription) => createdBefore(subscription, event));
  }

  /** Records the delivery as due in the log (once), then puts it in its subscription's line. */
  async function enqueue(subscriptionId: string, event: RecordedEvent): Promise<void> {
    const deliveryId = `${subscriptionId}.${event.id}`;
    await report(deliveryAggregate, deliveryId, {
      type: 'QueueDelivery',
      data: { deliveryId, subscriptionId, eventId: event.id, eventType: event.type, at: clock.now().toISOString() },
    }, event);
    const item: Queued = { deliveryId, subscriptionId, event };
    void resumed.then(() => queue.add(item));
  }

  async function resumeUnfinished(): Promise<void> {
    for await (const { delivery, event } of unfinishedDeliveries(eventStore, readStore, stopping.signal)) {
      queue.add({ deliveryId: delivery.deliveryId, subscriptionId: delivery.subscriptionId, event });
    }
  }

  return {
    name: 'notifications',
    async start() {
      resumed = tracked(resumeUnfinished()).catch((error: unknown) => console.error('notifications: unfinished deliveries were not resumed:', error));
    },
    async stop() {
      stopping.abort();
      queue.close();
      while (busy.size > 0) await Promise.allSettled([...busy]);
    },
    handle(event) {
      // Events of the notifications themselves would feed themselves; nothing subscribes to another type.
      if (!isSendable(event.type)) return Promise.resolve();
      return tracked((async () => {
        for (const subscription of await takersOf(event)) await enqueue(subscription.subscriptionId, event);
      })());
    },
  };
}
