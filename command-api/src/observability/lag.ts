// How far each consumer of the log (a projection, the relay) is behind the head.
import { countAfter, type EventStore } from '@berth/shared/ports/event-store';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';

/** Positions are not counts (EventStoreDB's are commit positions): lag is counted by reading, so only so far. */
export const LAG_COUNTED_UP_TO = 10_000;

/**
 * How long a read from the bus (NATS) may take before it counts as failed: a request to a server
 * that is down waits the client's 5 s, which a scrape or a status should not. A reachable server
 * answers in milliseconds.
 */
export const BUS_READ_BOUND_MS = 1000;

/** `read`, or a rejection once `ms` passed (the read may still settle; that is then ignored). */
export function bounded<T>(read: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

export interface ConsumerLag {
  readonly name: string;
  readonly position: number;
  readonly head: number;
  /** Events not applied yet, counted up to LAG_COUNTED_UP_TO. */
  readonly lagEvents: number;
  /** Age of the oldest event not applied yet; 0 when caught up. */
  readonly lagSeconds: number;
}

/** The projections' checkpoints and the relay's (whose lag is what the bus has not been given yet). */
async function checkpoints({ readStore, relayCheckpoint }: Infrastructure): Promise<Map<string, number>> {
  const positions = new Map(await readStore.checkpoints());
  // Where the relay's checkpoint cannot be read (NATS away), the others are still worth showing,
  // and the relay is left out: its last known position would show a lag long gone.
  const read = relayCheckpoint().then((checkpoint) => checkpoint.read());
  const relay = await bounded(read, BUS_READ_BOUND_MS, "the relay's checkpoint").catch(() => null);
  if (relay !== null) positions.set('relay', relay);
  return positions;
}

/** Seconds since the oldest event after `position` happened, by its own time; 0 when there is none. */
export async function secondsBehind(eventStore: EventStore, position: number, now: number): Promise<number> {
  const [next] = await eventStore.readAll(position, 1);
  return next ? Math.max(0, (now - Date.parse(next.metadata.occurredAt)) / 1000) : 0;
}

export async function consumerLags(infra: Infrastructure): Promise<ConsumerLag[]> {
  const { eventStore, clock } = infra;
  const head = await eventStore.head();
  const now = clock.now().getTime();
  const lags: ConsumerLag[] = [];
  for (const [name, position] of await checkpoints(infra)) {
    const behind = position < head;
    const lagSeconds = behind ? await secondsBehind(eventStore, position, now) : 0;
    const lagEvents = behind ? await countAfter(eventStore, position, LAG_COUNTED_UP_TO) : 0;
    lags.push({ name, position, head, lagEvents, lagSeconds });
  }
  return lags.sort((a, b) => a.name.localeCompare(b.name));
}
