// The live tail of a selection: what the log already holds, then each new matching event as it is
// appended, until the follower goes away or the selection's `to` has passed.
import type { RecordedEvent } from '@berth/shared/events/event';
import { matchesFilter, type EventFilter } from '@berth/shared/events/filter';
import type { EventStore } from '@berth/shared/ports/event-store';
import { Signal, untilAny } from '@berth/shared/adapters/signal';

/** The most events one read of a long answer (an export, a follow) takes from the log. */
const PAGE_EVENTS = 50;
/** About how much one such read brings: events of a megabyte are read one at a time. */
const PAGE_BYTES = 1024 * 1024;
/** An event stamped just before `to` may reach the log a moment after it: a follow waits that long more. */
const LATE_MS = 1000;
/** The longest wait a timer takes (a longer one fires at once). */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** About how large `event` is in an answer (its data is all but a few hundred bytes of it). */
export const sizeOf = (event: RecordedEvent): number => JSON.stringify(event.data).length;

/** How many events to read next, up to `largest`: about PAGE_BYTES of events the size of those just read. */
function nextPageSize(page: readonly RecordedEvent[], largest: number): number {
  const bytes = page.reduce((sum, event) => sum + sizeOf(event), 0);
  return Math.max(1, Math.min(largest, Math.floor(PAGE_BYTES / Math.max(1, bytes / page.length))));
}

/**
 * Every matching event after `after` up to `until`, a small page at a time (up to `largest`
 * events), read as the consumer takes them: one event first, as their size is not known yet.
 */
export async function* readSelection(
  store: EventStore, filter: EventFilter, after: number, until = Infinity, largest = PAGE_EVENTS,
): AsyncGenerator<RecordedEvent> {
  let position = after;
  let size = 1;
  for (;;) {
    const page = await store.readFiltered(filter, position, size);
    for (const event of page) {
      if (event.position > until) return;
      yield event;
    }
    if (page.length < size) return;
    position = page[page.length - 1]!.position;
    size = nextPageSize(page, largest);
  }
}

/** When the selection can gain no more events: once its `to` has passed (never without one). */
const lastMomentOf = (filter: EventFilter): number => (filter.to === undefined ? Infinity : Date.parse(filter.to) + LATE_MS);

/** Whether the selection can gain no more events now. */
export const hasEnded = (filter: EventFilter, now = Date.now()): boolean => lastMomentOf(filter) <= now;

/** Calls `act` at the instant `at`, however far; answers how to cancel it. */
function atInstant(at: number, act: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = at - Date.now();
    timer = left > LONGEST_TIMER_MS ? setTimeout(arm, LONGEST_TIMER_MS) : setTimeout(act, Math.max(0, left));
  };
  if (Number.isFinite(at)) arm();
  return () => clearTimeout(timer);
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
    while (queue.length >= PAGE_EVENTS && following && !stop.aborted) await untilAny([taken, stopped]);
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

/**
 * followSelection until the selection can gain no more events (its `to` has passed), then the
 * rest the log holds of it, and no more: a follower of a closed range is not kept waiting for ever.
 */
export async function* followToEnd(store: EventStore, filter: EventFilter, after: number, stop: AbortSignal): AsyncGenerator<RecordedEvent> {
  let last = after;
  if (stop.aborted) return;
  if (!hasEnded(filter)) {
    const live = new AbortController();
    const cancel = atInstant(lastMomentOf(filter), () => live.abort());
    const onStop = () => live.abort();
    stop.addEventListener('abort', onStop, { once: true });
    try {
      for await (const event of followSelection(store, filter, after, live.signal)) {
        last = event.position;
        yield event;
      }
    } finally {
      cancel();
      stop.removeEventListener('abort', onStop);
    }
    if (stop.aborted) return;
  }
  // What the live part had queued but not handed over when it stopped is read here.
  yield* readSelection(store, filter, last, await store.head());
}
