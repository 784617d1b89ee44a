// A checkpoint in a NATS key-value bucket, for the scaled-out mode: the relay and the API
// processes that report its lag may run on different machines, and all of them reach NATS.
import { Kvm } from '@nats-io/kv';
import { natsConnection } from './connection.ts';
import type { Checkpoint } from '../../ports/checkpoint.ts';

const BUCKET = 'berth_checkpoints';

export async function natsCheckpoint(servers: string, name: string): Promise<Checkpoint & { close(): Promise<void> }> {
  const connection = await natsConnection(servers, `berth-checkpoint-${name}`);
  const kv = await new Kvm(connection).create(BUCKET, { history: 1 });
  return {
    async read() {
      const entry = await kv.get(name);
      return entry && entry.operation === 'PUT' ? Number(entry.string()) || 0 : 0;
    },
    async save(position) {
      await kv.put(name, String(position));
    },
    close: () => connection.close(),
  };
}
