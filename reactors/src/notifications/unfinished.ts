// The deliveries a stopped or killed reactors process left between two attempts: the log shows them
// `pending`, and the event that caused them may never come over the bus again (the in-process bus
// does not outlive its process; JetStream hands an unacknowledged event out again only after its
// ack wait, and not at all once it was acknowledged). Each is found with the event it posts.
import { deliveryAggregate, type Delivery } from '@berth/shared/domain/notification/delivery';
import { streamName, type RecordedEvent } from '@berth/shared/events/event';
import type { EventStore } from '@berth/shared/ports/event-store';
import type { ReadStore } from '@berth/shared/ports/read-store';

const PAGE = 500;
/** As the deployer's recovery: the read models first catch up with the log, within this bound. */
const CATCH_UP_MS = 30_000;

export interface Unfinished {
  readonly delivery: Delivery;
  readonly event: RecordedEvent;
}

/**
 * The event a delivery posts, read from the log: an event of its type, appended before the
 * delivery's first attempt was recorded (no position is kept in the delivery to go to it at once).
 */
async function eventOf(eventStore: EventStore, delivery: Delivery, signal: AbortSignal): Promise<RecordedEvent | null> {
  const { events } = await eventStore.readStream(streamName(deliveryAggregate.name, delivery.deliveryId));
  const before = events[0]?.position ?? Infinity;
  for (let after = 0; !signal.aborted;) {
    const page = await eventStore.readFiltered({ type: delivery.eventType }, after, PAGE);
    const found = page.find((event) => event.id === delivery.eventId);
    if (found) return found;
    const end = page.at(-1);
    if (!end || page.length < PAGE || end.position >= before) return null;
    after = end.position;
  }
  return null;
}

/** Every delivery the log shows still retrying, oldest first, until `signal` says stop. */
export async function* unfinishedDeliveries(eventStore: EventStore, readStore: ReadStore, signal: AbortSignal): AsyncGenerator<Unfinished> {
  await readStore.waitFor(await eventStore.head(), CATCH_UP_MS).catch(() => {});
  const pending = (await readStore.find(deliveryAggregate.name, 'status', 'pending') as unknown as Delivery[])
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const delivery of pending) {
    if (signal.aborted) return;
    const event = await eventOf(eventStore, delivery, signal);
    if (event) yield { delivery, event };
    else if (!signal.aborted) console.error(`notifications: the event ${delivery.eventId} of delivery ${delivery.deliveryId} is not in the log; it stays pending`);
  }
}
