import type { RecordedEvent } from '../events/event.ts';
import type { Subscription } from '../ports/event-store.ts';
import { Signal } from './signal.ts';

export interface SubscriptionSource {
  /** Events strictly after `position`; empty when caught up. */
  read(after: number): Promise<readonly RecordedEvent[]>;
  /** Resolves when new events may be there. */
  changed(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * Catch-up-then-live delivery shared by the event-store adapters. A failing handler does not end
 * the subscription: the batch is retried from the last position it completed, with back-off.
 */
export function supervise(
  source: SubscriptionSource,
  after: number,
  onEvents: (events: readonly RecordedEvent[]) => Promise<void>,
  onError: (error: unknown, failures: number) => void = (error) => console.error('subscription failed', error),
): Subscription {
  let stopped = false;
  const stopSignal = new Signal();
  const run = async () => {
    let position = after;
    let failures = 0;
    while (!stopped) {
      try {
        const batch = await source.read(position);
        // stop() may have been called while reading: its wake-up reached no one.
        if (stopped) break;
        if (batch.length === 0) {
          await Promise.race([source.changed(), stopSignal.wait()]);
          continue;
        }
        await onEvents(batch);
        position = batch[batch.length - 1]!.position;
        failures = 0;
      } catch (error) {
        failures++;
        onError(error, failures);
        await sleep(Math.min(5000, 50 * 2 ** failures));
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
