// The bus of a scaled-out Berth: NATS JetStream (server 2.9 or later). One stream holds every
// event subject; each consumer is a durable pull consumer with explicit acks. Publishing uses the
// event id as message id, so the stream drops a re-published event within its duplicate window.
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { natsConnection } from '../nats/connection.ts';
import type { RecordedEvent } from '../../events/event.ts';
import { upcast } from '../../events/catalogue.ts';
import { backoffFor, SUBJECT_ROOT, subjectOf, type Bus, type Consumer, type ConsumerOptions, type Delivery } from '../../ports/bus.ts';
import { messageOf } from '../../errors.ts';

export const STREAM = 'BERTH_EVENTS';
const NANOS_PER_MS = 1_000_000;
/**
 * Redelivery of an event whose consumer died before acknowledging it (in-flight handlers keep it
 * with `working()`). No consumer `backoff` list: 2.9 measures a nak's delay against it and skews it.
 */
const ACK_WAIT_MS = 30_000;
const WORKING_EVERY_MS = 10_000;
const DUPLICATE_WINDOW_MS = 10 * 60_000;

export class NatsBus implements Bus {
  /** Why the connection is down, while it is (nats.js reconnects on its own). */
  private down: string | null = null;

  private constructor(private readonly connection: NatsConnection, private readonly js: JetStreamClient) {
    void (async () => {
      for await (const status of connection.status()) {
        if (status.type === 'disconnect') this.down = `disconnected from NATS (${status.server})`;
        else if (status.type === 'reconnect') this.down = null;
      }
    })();
  }

  static async connect(servers: string, options: { name?: string } = {}): Promise<NatsBus> {
    const connection = await natsConnection(servers, options.name ?? 'berth');
    const manager = await jetstreamManager(connection);
    const config = { subjects: [`${SUBJECT_ROOT}.>`], duplicate_window: DUPLICATE_WINDOW_MS * NANOS_PER_MS };
    try {
      await manager.streams.info(STREAM);
      await manager.streams.update(STREAM, config);
    } catch {
      await manager.streams.add({ name: STREAM, ...config });
    }
    return new NatsBus(connection, jetstream(connection));
  }

  async publish(event: RecordedEvent): Promise<void> {
    await this.js.publish(subjectOf(event), JSON.stringify(event), { msgID: event.id });
  }

  async consume(name: string, handle: (delivery: Delivery) => Promise<void>, options: ConsumerOptions = {}): Promise<Consumer> {
    const manager = await jetstreamManager(this.connection);
    const concurrency = Math.max(1, options.concurrency ?? 1);
    const filter = options.aggregate ? `${SUBJECT_ROOT}.${options.aggregate}.>` : `${SUBJECT_ROOT}.>`;
    const config = {
      ack_policy: AckPolicy.Explicit,
      filter_subject: filter,
      max_ack_pending: concurrency,
      ack_wait: ACK_WAIT_MS * NANOS_PER_MS,
      max_deliver: -1,
    };
    try {
      await manager.consumers.info(STREAM, name);
      await manager.consumers.update(STREAM, name, config);
    } catch {
      await manager.consumers.add(STREAM, { durable_name: name, deliver_policy: DeliverPolicy.All, ...config });
    }
    const consumer = await this.js.consumers.get(STREAM, name);
    const messages = await consumer.consume({ max_messages: Math.max(concurrency, 16) });
    const inFlight = new Set<Promise<void>>();
    const deliver = async (message: JsMsg) => {
      const working = setInterval(() => message.working(), WORKING_EVERY_MS);
      const attempt = message.info.deliveryCount;
      try {
        await handle({ event: upcast(JSON.parse(message.string()) as RecordedEvent), attempt });
        message.ack();
      } catch {
        message.nak(backoffFor(attempt));
      } finally {
        clearInterval(working);
      }
    };
    const loop = (async () => {
      for await (const message of messages) {
        const delivery = deliver(message);
        inFlight.add(delivery);
        void delivery.finally(() => inFlight.delete(delivery));
        if (inFlight.size >= concurrency) await Promise.race(inFlight);
      }
    })();
    return {
      stop: async () => {
        await messages.close();
        await loop;
        await Promise.all(inFlight);
      },
    };
  }

  async pending(): Promise<Map<string, number>> {
    const manager = await jetstreamManager(this.connection);
    const pending = new Map<string, number>();
    for await (const info of manager.consumers.list(STREAM)) pending.set(info.name, info.num_pending + info.num_ack_pending);
    return pending;
  }

  async check(): Promise<void> {
    if (this.connection.isClosed()) throw new Error('the NATS connection is closed');
    if (this.down) throw new Error(this.down);
    // A round trip, bounded: a server that accepts the socket but does not answer is not up either.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      // The client's own words ("connection disconnected") do not say what went away: the reason names NATS.
      this.connection.rtt().catch((error: unknown) => {
        throw new Error(`NATS did not answer a ping: ${messageOf(error)}`);
      }),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('NATS did not answer a ping within 2 s')), 2000); }),
    ]).finally(() => clearTimeout(timer));
  }

  async close(): Promise<void> {
    await this.connection.drain();
  }
}
