// The relay: reads the log from its own checkpoint and publishes every event on the bus, with the
// event id as message id. It moves its checkpoint only after the bus took the whole batch, so a
// crash publishes some events again, and the bus drops those duplicates. On a bus that does not
// outlive its process, only as far as every consumer acknowledged (saved again at a stop): a crash
// then publishes again what was in flight, and the reactors, idempotent against the log, do only
// what was not done.
import type { Bus } from '@berth/shared/ports/bus';
import type { Checkpoint } from '@berth/shared/ports/checkpoint';
import type { EventStore, Subscription } from '@berth/shared/ports/event-store';

export class Relay {
  private subscription: Subscription | null = null;
  /** The position of the last event the bus took. */
  private published = 0;

  constructor(private readonly events: EventStore, private readonly bus: Bus, private readonly checkpoint: Checkpoint) {}

  async start(): Promise<void> {
    this.subscription = this.events.subscribe(await this.checkpoint.read(), async (batch) => {
      // One connection keeps the order of publishes sent together.
      await Promise.all(batch.map((event) => this.bus.publish(event)));
      this.published = batch[batch.length - 1]!.position;
      await this.save();
    });
  }

  private save(): Promise<void> {
    return this.checkpoint.save(this.bus.acknowledgedThrough?.(this.published) ?? this.published);
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
    if (this.published > 0) await this.save();
  }
}
