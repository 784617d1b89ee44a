import { excludeSystemEvents, type EventStoreDBClient } from '@eventstore/db-client';
import type { RecordedEvent } from '../../events/event.ts';
import type { Subscription } from '../../ports/event-store.ts';
import { Signal } from '../signal.ts';
import { fromPosition, isSystem, toRecorded } from './envelope.ts';

const BATCH = 500;

/**
 * A catch-up subscription to $all, supervised: it delivers strictly after `after` (the server's
 * `fromPosition` is exclusive), batches what has arrived, hands one batch at a time to the
 * handler, and when the connection drops or the handler fails it subscribes again from the last
 * position handled, backing off up to 5 s.
 */
export function subscribeToAll(
  client: EventStoreDBClient,
  after: number,
  onEvents: (events: readonly RecordedEvent[]) => Promise<void>,
  onError: (error: unknown, failures: number) => void = (error) => console.error('subscription to $all failed', error),
): Subscription {
  let stopped = false;
  const stopping = new Signal();
  let current: ReturnType<EventStoreDBClient['subscribeToAll']> | null = null;
  /** The last position the handler completed: where a new subscription starts. */
  let position = after;

  const follow = async (): Promise<void> => {
    const subscription = client.subscribeToAll({ fromPosition: fromPosition(position), filter: excludeSystemEvents() });
    current = subscription;
    // Cancels the call when stopped while the first response is awaited, before `current` was seen.
    if (stopped) await subscription.unsubscribe();
    let batch: RecordedEvent[] = [];
    try {
      for await (const resolved of subscription) {
        if (stopped) break;
        const event = !isSystem(resolved) ? toRecorded(resolved) : null;
        // Position 0 means "from the start", inclusive; anything else is exclusive already.
        if (event && event.position > (batch[batch.length - 1]?.position ?? position)) batch.push(event);
        if (batch.length > 0 && (subscription.readableLength === 0 || batch.length >= BATCH)) {
          await onEvents(batch);
          position = batch[batch.length - 1]!.position;
          batch = [];
        }
      }
    } finally {
      current = null;
      await subscription.unsubscribe().catch(() => {});
    }
  };

  const done = (async () => {
    let failures = 0;
    while (!stopped) {
      try {
        await follow();
        failures = 0;
      } catch (error) {
        if (stopped) break;
        failures++;
        onError(error, failures);
        await stopping.wait(Math.min(5000, 50 * 2 ** failures));
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      stopping.notify();
      await current?.unsubscribe().catch(() => {});
      await done;
    },
  };
}
