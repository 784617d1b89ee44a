// The deliveries waiting to be sent, one queue per subscription, so a dead or slow receiver holds
// back only its own: the bus has moved on once a delivery is queued in the log, and the sending
// (attempts, back-off waits, retries) runs here. Within a subscription, the deliveries of one
// stream go one at a time in log order (the per-stream order README promises); those of different
// streams go side by side, a few at once, so one subscription's backlog cannot take every slot.
import type { RecordedEvent } from '@berth/shared/events/event';

export interface Queued {
  readonly deliveryId: string;
  readonly subscriptionId: string;
  readonly event: RecordedEvent;
}

/** Deliveries of one subscription under way at once (attempts or back-off waits), each of another stream. */
export const ACTIVE_PER_SUBSCRIPTION = 8;

interface SubscriptionQueue {
  /** Not started yet, in log order. */
  readonly waiting: Queued[];
  /** The streams whose delivery is under way: the next of the stream waits for it to end. */
  readonly busyStreams: Set<string>;
}

export interface DeliveryQueue {
  /** Queues a delivery unless it is already waiting or under way here. */
  add(item: Queued): void;
  /** Deliveries waiting or under way. */
  size(): number;
  /** Starts nothing more: what waits is pending in the log, and the next start takes it up. */
  close(): void;
}

/** Inserts `item` in log order: one taken up after a restart may come after later events of its stream. */
function insertInOrder(waiting: Queued[], item: Queued): void {
  let at = waiting.length;
  while (at > 0 && waiting[at - 1]!.event.position > item.event.position) at--;
  waiting.splice(at, 0, item);
}

/** The first waiting delivery whose stream has none under way, taken out of the line. */
function nextOf(queue: SubscriptionQueue): Queued | undefined {
  const at = queue.waiting.findIndex((item) => !queue.busyStreams.has(item.event.stream));
  return at === -1 ? undefined : queue.waiting.splice(at, 1)[0];
}

/** A queue that hands each delivery to `send` when its turn comes; `send` must not reject. */
export function deliveryQueue(send: (item: Queued) => Promise<void>): DeliveryQueue {
  const queues = new Map<string, SubscriptionQueue>();
  const known = new Set<string>();
  let closed = false;

  const pump = (subscriptionId: string) => {
    const queue = queues.get(subscriptionId);
    if (!queue) return;
    while (!closed && queue.busyStreams.size < ACTIVE_PER_SUBSCRIPTION) {
      const item = nextOf(queue);
      if (!item) break;
      queue.busyStreams.add(item.event.stream);
      void send(item).finally(() => {
        queue.busyStreams.delete(item.event.stream);
        known.delete(item.deliveryId);
        pump(subscriptionId);
      });
    }
    if (queue.waiting.length === 0 && queue.busyStreams.size === 0) queues.delete(subscriptionId);
  };

  return {
    add(item) {
      if (closed || known.has(item.deliveryId)) return;
      known.add(item.deliveryId);
      const queue = queues.get(item.subscriptionId) ?? { waiting: [], busyStreams: new Set<string>() };
      queues.set(item.subscriptionId, queue);
      insertInOrder(queue.waiting, item);
      pump(item.subscriptionId);
    },
    size: () => known.size,
    close() { closed = true; },
  };
}

/** At most `limit` calls of `work` at once; the others wait their turn in line. */
export function limiter(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const line: Array<() => void> = [];
  return async (work) => {
    if (running >= limit) await new Promise<void>((resolve) => line.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      const next = line.shift();
      if (next) next(); else running--;
    }
  };
}
