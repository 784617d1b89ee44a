// The relay: reads the log from its own checkpoint and publishes every event on the bus, with the
// event id as message id. It moves its checkpoint only after the bus took the whole batch, so a
// crash publishes some events again, and the bus drops those duplicates. On a bus that does not
// outlive its process, only as far as every consumer acknowledged (saved again at a stop): a crash
// then publishes again what was in flight, and the reactors, idempotent against the log, do only
// what was not done.
import type { Bus } from '@berth/shared/ports/bus';
import type { Checkpoint } from '@berth/shared/ports/checkpoint';
import type { EventStore, Subscription } from '@berth/shared/ports/event-store';

/** How soon the checkpoint is saved again while the consumers of an in-process bus catch up. */
const CATCH_UP_MS = 500;

export class Relay {
  private subscription: Subscription | null = null;
  /** The position of the last event the bus took. */
  private published = 0;
  /** The position last saved, and the save to come while it is behind `published`. */
  private saved = 0;
  private again: NodeJS.Timeout | null = null;
  /** Saves run one after another, so an older position is never written over a newer one. */
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly events: EventStore, private readonly bus: Bus, private readonly checkpoint: Checkpoint) {}

  async start(): Promise<void> {
    this.subscription = this.events.subscribe(await this.checkpoint.read(), async (batch) => {
      // One connection keeps the order of publishes sent together.
      await Promise.all(batch.map((event) => this.bus.publish(event)));
      this.published = batch[batch.length - 1]!.position;
      await this.save();
    });
  }

  /**
   * Saves how far the bus is done with. On an in-process bus its consumers acknowledge after the
   * publish, so the checkpoint is saved again until it reaches the last event published: left one
   * batch behind, it would show a lag that grows while Berth is idle, and publish that batch again
   * at the next start.
   */
  private save(): Promise<void> {
    const next = this.saving.catch(() => {}).then(() => this.saveNow());
    this.saving = next;
    return next;
  }

  private async saveNow(): Promise<void> {
    if (this.again) clearTimeout(this.again);
    this.again = null;
    const through = this.bus.acknowledgedThrough?.(this.published) ?? this.published;
    if (through !== this.saved) await this.checkpoint.save(through);
    this.saved = through;
    if (through < this.published && this.subscription) {
      this.again = setTimeout(() => { void this.save().catch(() => {}); }, CATCH_UP_MS).unref();
    }
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
    if (this.published > 0) await this.save();
    if (this.again) clearTimeout(this.again);
  }
}
