import type { RecordedEvent } from '../events/event.ts';
import type { Subscription } from '../ports/event-store.ts';
import { Signal, untilAny } from './signal.ts';
import { isUnavailable } from '../ports/unavailable.ts';

export interface SubscriptionSource {
  /** Events strictly after `position`, at most `batchSize` of them; empty when caught up. */
  read(after: number): Promise<readonly RecordedEvent[]>;
  /** The most a read returns: a shorter batch was the end of the log when it was read. */
  readonly batchSize: number;
  /** Resolves when new events may be there: at the next append after the call, or at the next poll. */
  changed(): Promise<void>;
}

/**
 * Catch-up-then-live delivery shared by the event-store adapters. A failing handler does not end
 * the subscription: the batch is retried from the last position it completed, with back-off.
 */
export function supervise(
  source: SubscriptionSource,
  after: number,
  onEvents: (events: readonly RecordedEvent[]) => Promise<void>,
  // An outage (a store away, the disk full) is one line at each retry; anything else is a fault, with its stack.
  onError: (error: unknown, failures: number) => void = (error) =>
    console.error('subscription failed; it retries:', isUnavailable(error) ? error.message : error),
): Subscription {
  let stopped = false;
  const stopSignal = new Signal();
  const run = async () => {
    let position = after;
    let failures = 0;
    while (!stopped) {
      try {
        // Armed before the read, so an append during the read or the handler wakes it: none is missed.
        const woken = source.changed();
        const batch = await source.read(position);
        // stop() may have been called while reading: its wake-up reached no one.
        if (stopped) break;
        if (batch.length > 0) {
          await onEvents(batch);
          position = batch[batch.length - 1]!.position;
          failures = 0;
        }
        // Caught up when it was read: a read now would find only what wakes `woken`. (On the SQLite
        // log, the empty read this saves after every batch cost 40-60 µs.)
        if (batch.length < source.batchSize) await untilAny([stopSignal], { settled: woken });
      } catch (error) {
        failures++;
        onError(error, failures);
        // Backs off, unless told to stop meanwhile.
        await stopSignal.wait(Math.min(5000, 50 * 2 ** failures));
      }
    }
  };
  const done = run();
  return {
    async stop() {
      stopped = true;
      stopSignal.notify();
      await done;
    },
  };
}
