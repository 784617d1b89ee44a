// The live tail of a selection: what the log already holds, then each new matching event as it is
// appended, until the follower goes away.
import type { RecordedEvent } from '@berth/shared/events/event';
import { matchesFilter, type EventFilter } from '@berth/shared/events/filter';
import type { EventStore } from '@berth/shared/ports/event-store';
import { Signal, untilAny } from '@berth/shared/adapters/signal';

const PAGE = 1000;

/** Every matching event after `after` up to `until`, a page at a time. */
export async function* readSelection(store: EventStore, filter: EventFilter, after: number, until = Infinity): AsyncGenerator<RecordedEvent> {
  let position = after;
  for (;;) {
    const page = await store.readFiltered(filter, position, PAGE);
    for (const event of page) {
      if (event.position > until) return;
      yield event;
    }
    if (page.length < PAGE) return;
    position = page[page.length - 1]!.position;
  }
}

export async function* followSelection(store: EventStore, filter: EventFilter, after: number, stop: AbortSignal): AsyncGenerator<RecordedEvent> {
  // Up to the head through the indexed read, then live from the head through a subscription.
  const head = Math.max(after, await store.head());
  yield* readSelection(store, filter, after, head);
  const queue: RecordedEvent[] = [];
  const arrived = new Signal();
  const taken = new Signal();
  const stopped = new Signal();
  let following = true;
  const subscription = store.subscribe(head, async (batch) => {
    for (const event of batch) if (matchesFilter(event, filter)) queue.push(event);
    if (queue.length > 0) arrived.notify();
    // The log waits for a follower that lags (batches come one at a time): the queue stays about a page long.
    while (queue.length >= PAGE && following && !stop.aborted) await untilAny([taken, stopped]);
  });
  stop.addEventListener('abort', () => stopped.notify(), { once: true });
  try {
    while (!stop.aborted) {
      while (queue.length > 0 && !stop.aborted) {
        yield queue.shift()!;
        taken.notify();
      }
      // An abort while the consumer held the last event notified no one yet waiting.
      if (stop.aborted) break;
      await untilAny([arrived, stopped]);
    }
  } finally {
    // A consumer that breaks off (the long poll) releases a batch held back above before stopping.
    following = false;
    stopped.notify();
    await subscription.stop();
  }
}
