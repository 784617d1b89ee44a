// How far each consumer of the log (a projection, the relay) is behind the head.
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';

export interface ConsumerLag {
  readonly name: string;
  readonly position: number;
  readonly head: number;
  readonly lagEvents: number;
  /** Age of the oldest event not applied yet; 0 when caught up. */
  readonly lagSeconds: number;
}

export async function consumerLags({ eventStore, readStore, clock }: Infrastructure): Promise<ConsumerLag[]> {
  const head = await eventStore.head();
  const now = clock.now().getTime();
  const lags: ConsumerLag[] = [];
  for (const [name, position] of await readStore.checkpoints()) {
    const [next] = position < head ? await eventStore.readAll(position, 1) : [];
    const lagSeconds = next ? Math.max(0, (now - Date.parse(next.metadata.occurredAt)) / 1000) : 0;
    lags.push({ name, position, head, lagEvents: head - position, lagSeconds });
  }
  return lags.sort((a, b) => a.name.localeCompare(b.name));
}
