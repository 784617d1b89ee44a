// The deliveries a stopped or killed reactors process left between two attempts: the log shows them
// `pending`, and the event that caused them may never come over the bus again (the in-process bus
// does not outlive its process; JetStream hands an unacknowledged event out again only after its
// ack wait, and not at all once it was acknowledged). Each is found with the event it posts.
import { deliveryAggregate, type Delivery } from '@berth/shared/domain/notification/delivery';
import { streamName, type RecordedEvent } from '@berth/shared/events/event';
import type { EventStore } from '@berth/shared/ports/event-store';
import type { ReadStore } from '@berth/shared/ports/read-store';
import { readModelsCaughtUp } from '../runtime/caught-up.ts';

const PAGE = 500;

export interface Unfinished {
  readonly delivery: Delivery;
  readonly event: RecordedEvent;
}

/**
 * The events the deliveries post, read from the log: one pass over the events of each type they
 * post, up to the last delivery's first attempt (no position is kept in a delivery to go to its event at once).
 */
async function eventsOf(eventStore: EventStore, deliveries: readonly Delivery[], signal: AbortSignal): Promise<Map<string, RecordedEvent>> {
  const found = new Map<string, RecordedEvent>();
  for (const type of new Set(deliveries.map((delivery) => delivery.eventType))) {
    const ofType = deliveries.filter((delivery) => delivery.eventType === type);
    const wanted = new Set(ofType.map((delivery) => delivery.eventId));
    let before = 0;
    for (const delivery of ofType) {
      const { events } = await eventStore.readStream(streamName(deliveryAggregate.name, delivery.deliveryId));
      before = Math.max(before, events[0]?.position ?? Infinity);
    }
    for (let after = 0; wanted.size > 0 && !signal.aborted;) {
      const page = await eventStore.readFiltered({ type }, after, PAGE);
      for (const event of page.filter((event) => wanted.delete(event.id))) found.set(event.id, event);
      const end = page.at(-1);
      if (!end || page.length < PAGE || end.position >= before) break;
      after = end.position;
    }
  }
  return found;
}

/** Every delivery the log shows still retrying, oldest first, until `signal` says stop. */
export async function* unfinishedDeliveries(eventStore: EventStore, readStore: ReadStore, signal: AbortSignal): AsyncGenerator<Unfinished> {
  await readModelsCaughtUp({ eventStore, readStore });
  const pending = (await readStore.find(deliveryAggregate.name, 'status', 'pending') as unknown as Delivery[])
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const events = await eventsOf(eventStore, pending, signal);
  for (const delivery of pending) {
    if (signal.aborted) return;
    const event = events.get(delivery.eventId);
    if (event) yield { delivery, event };
    else console.error(`notifications: the event ${delivery.eventId} of delivery ${delivery.deliveryId} is not in the log; it stays pending`);
  }
}
