// The reactor runtime: each reactor is a durable bus consumer. Events of one stream are handled
// one at a time in log order, different streams at once; an event id already handled here is
// skipped (the bus delivers at least once), and every handler is idempotent against the log too,
// since its reports go through the deciders, which append nothing for what already happened.
import type { RecordedEvent } from '@berth/shared/events/event';
import type { Bus, Consumer } from '@berth/shared/ports/bus';
import { addNewest } from '@berth/shared/bounded';

export interface Reactor {
  /** The durable consumer's name: stable across releases. */
  readonly name: string;
  /** Only events of this aggregate; every event when left out. */
  readonly aggregate?: string;
  handle(event: RecordedEvent): Promise<void>;
}

const REMEMBERED = 10_000;
const CONCURRENCY = 16;

export async function runReactor(bus: Bus, reactor: Reactor, onError: (error: unknown, event: RecordedEvent) => void): Promise<Consumer> {
  const handled = new Set<string>();
  const lanes = new Map<string, Promise<void>>();
  const inLane = (event: RecordedEvent) => {
    const previous = lanes.get(event.stream) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(() => reactor.handle(event));
    lanes.set(event.stream, next);
    void next.catch(() => {}).finally(() => { if (lanes.get(event.stream) === next) lanes.delete(event.stream); });
    return next;
  };
  return bus.consume(reactor.name, async ({ event }) => {
    if (handled.has(event.id)) return;
    try {
      await inLane(event);
    } catch (error) {
      onError(error, event);
      throw error; // comes back with back-off
    }
    addNewest(handled, event.id, REMEMBERED);
  }, { aggregate: reactor.aggregate, concurrency: CONCURRENCY });
}
