// A reactor that reads the read models at start (what a crash left, what to reconcile) must see what
// the log holds: it waits for them to reach the log's head first, within a bound, since a read store
// that cannot catch up (its projections process away) must not hold the reactors for ever.
import type { EventStore } from '@berth/shared/ports/event-store';
import type { ReadStore } from '@berth/shared/ports/read-store';

/** How long a start waits for the read models. */
export const CATCH_UP_MS = 30_000;

/** Whether the read models reached the log's head within `ms`. */
export const readModelsCaughtUp = async (stores: { eventStore: EventStore; readStore: ReadStore }, ms = CATCH_UP_MS): Promise<boolean> =>
  stores.readStore.waitFor(await stores.eventStore.head(), ms).then(() => true, () => false);
