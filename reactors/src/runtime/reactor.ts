// The reactor runtime: each reactor is a durable bus consumer. Events of one stream are handled
// one at a time in the order the bus hands them out, different streams at once. That is not always
// log order: a failed event's lane moves on, and the bus hands the failed event out again later,
// after later ones of its stream; so handlers act on the log's current state, not on the event alone.
// An event id already handled here is skipped (the bus delivers at least once), and every handler
// is idempotent against the log too, since its reports go through the deciders, which append
// nothing for what already happened.
// A reactor whose work outlasts a handler's turn (waits of minutes) takes up on start what the log
// shows it left unfinished, and ends those waits when it stops, so a stop is prompt and loses nothing.
import type { RecordedEvent } from '@berth/shared/events/event';
import type { Bus, Consumer } from '@berth/shared/ports/bus';
import { addNewest } from '@berth/shared/bounded';

export interface Reactor {
  /** The durable consumer's name: stable across releases. */
  readonly name: string;
  /** Only events of this aggregate; every event when left out. */
  readonly aggregate?: string;
  handle(event: RecordedEvent): Promise<void>;
  /**
   * Before the consumer starts: takes up the work the log shows a stopped or killed process left
   * unfinished, which the bus may never hand out again (the in-process bus does not outlive its process).
   */
  start?(): Promise<void>;
  /** With the consumer's stop: ends the handlers' waits, and resolves once none of its work runs. */
  stop?(): Promise<void>;
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
  await reactor.start?.();
  const consumer = await bus.consume(reactor.name, async ({ event }) => {
    if (handled.has(event.id)) return;
    try {
      await inLane(event);
    } catch (error) {
      onError(error, event);
      throw error; // comes back with back-off
    }
    addNewest(handled, event.id, REMEMBERED);
  }, { aggregate: reactor.aggregate, concurrency: CONCURRENCY }).catch(async (error: unknown) => {
    await reactor.stop?.();
    throw error;
  });
  return {
    // The reactor's waits end first: a bus that waits for its handlers (JetStream) is not held by them.
    stop: async () => { await Promise.all([reactor.stop?.(), consumer.stop()]); },
  };
}
