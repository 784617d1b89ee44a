// How far each consumer of the log (a projection, the relay) is behind the head.
import { countAfter } from '@berth/shared/ports/event-store';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';

/** Positions are not counts (EventStoreDB's are commit positions): lag is counted by reading, so only so far. */
export const LAG_COUNTED_UP_TO = 10_000;

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
  // Where the relay's checkpoint cannot be read (NATS away), the others are still worth showing.
  const relay = await relayCheckpoint().then((checkpoint) => checkpoint.read()).catch(() => null);
  if (relay !== null) positions.set('relay', relay);
  return positions;
}

export async function consumerLags(infra: Infrastructure): Promise<ConsumerLag[]> {
  const { eventStore, clock } = infra;
  const head = await eventStore.head();
  const now = clock.now().getTime();
  const lags: ConsumerLag[] = [];
  for (const [name, position] of await checkpoints(infra)) {
    const [next] = position < head ? await eventStore.readAll(position, 1) : [];
    const lagSeconds = next ? Math.max(0, (now - Date.parse(next.metadata.occurredAt)) / 1000) : 0;
    const lagEvents = next ? await countAfter(eventStore, position, LAG_COUNTED_UP_TO) : 0;
    lags.push({ name, position, head, lagEvents, lagSeconds });
  }
  return lags.sort((a, b) => a.name.localeCompare(b.name));
}
