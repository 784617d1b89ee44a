// Leases in a NATS key-value bucket whose entries live `ttlMs` unless renewed. Taking a lease
// creates its key (refused while another holds it); renewing updates it at the revision last
// written (refused if anyone else wrote since). A holder that cannot renew for half the time to
// live stops its work, so it has stopped well before the key expires and another can take it.
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { natsConnection } from './connection.ts';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Lease, LeasedWork, Leases } from '../../ports/lease.ts';
import { Signal } from '../signal.ts';

const BUCKET = 'berth_leases';
const within = <T>(ms: number, promise: Promise<T>) =>
  Promise.race([promise, delay(ms, undefined, { ref: false }).then(() => { throw new Error(`no answer within ${ms} ms`); })]);

export class NatsLeases implements Leases {
  readonly holder = randomUUID();
  private readonly held = new Set<Lease>();

  private constructor(private readonly connection: NatsConnection, private readonly kv: KV, private readonly ttlMs: number) {}

  static async connect(servers: string, options: { ttlMs?: number } = {}): Promise<NatsLeases> {
    const ttlMs = options.ttlMs ?? 10_000;
    const connection = await natsConnection(servers, 'berth-leases');
    const kv = await new Kvm(connection).create(BUCKET, { ttl: ttlMs, history: 1 });
    return new NatsLeases(connection, kv, ttlMs);
  }

  hold(name: string, work: LeasedWork): Lease {
    const { kv, ttlMs, holder } = this;
    let released = false;
    let holding = false;
    const wake = new Signal();
    const renewEvery = ttlMs / 4;

    /** Holds the lease from `revision` on until it is lost or released; stops the work first either way. */
    const keep = async (revision: number) => {
      let renewedAt = Date.now();
      holding = true;
      try {
        await work.start();
      } catch (error) {
        // Nothing half-started stays running, and the key goes at once: the next attempt need not wait for it to expire.
        holding = false;
        await work.stop().catch(() => {});
        await within(renewEvery, kv.delete(name, { previousSeq: revision })).catch(() => {});
        throw error;
      }
      while (!released && Date.now() - renewedAt < ttlMs / 2) {
        await wake.wait(renewEvery);
        if (released) break;
        try {
          revision = await within(renewEvery, kv.update(name, holder, revision));
          renewedAt = Date.now();
        } catch (error) {
          // Someone else wrote the key: it is theirs now. Anything else: try again until the bound.
          if (/wrong last sequence/i.test(String(error))) break;
        }
      }
      holding = false;
      await work.stop();
      if (released) await within(renewEvery, kv.delete(name, { previousSeq: revision })).catch(() => {});
    };

    const done = (async () => {
      while (!released) {
        try {
          await keep(await within(renewEvery, kv.create(name, holder)));
        } catch {
          await wake.wait(renewEvery); // held by another (or NATS away): look again soon
        }
      }
    })();

    const lease: Lease = {
      get holding() { return holding; },
      async release() {
        released = true;
        wake.notify();
        await done;
      },
    };
    this.held.add(lease);
    return lease;
  }

  async close(): Promise<void> {
    for (const lease of this.held) await lease.release();
    await this.connection.close();
  }
}
