// The relay: reads the log from its own checkpoint and publishes every event on the bus, with the
// event id as message id. It moves its checkpoint only after the bus took the whole batch, so a
// crash publishes some events again, and the bus drops those duplicates.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Bus } from '@berth/shared/ports/bus';
import type { EventStore, Subscription } from '@berth/shared/ports/event-store';

export class Relay {
  private subscription: Subscription | null = null;

  constructor(private readonly events: EventStore, private readonly bus: Bus, private readonly checkpointFile: string) {}

  /** Position of the last event the bus took. */
  checkpoint(): number {
    return existsSync(this.checkpointFile) ? Number(readFileSync(this.checkpointFile, 'utf8').trim()) || 0 : 0;
  }

  start(): void {
    this.subscription = this.events.subscribe(this.checkpoint(), async (batch) => {
      // One connection keeps the order of publishes sent together.
      await Promise.all(batch.map((event) => this.bus.publish(event)));
      this.save(batch[batch.length - 1]!.position);
    });
  }

  private save(position: number): void {
    const next = `${this.checkpointFile}.next`;
    writeFileSync(next, String(position));
    renameSync(next, this.checkpointFile);
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }
}
