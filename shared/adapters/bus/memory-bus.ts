// The in-process bus of the embedded default: every role in one process, nothing to run beside.
// It keeps the events that some consumer has not acknowledged yet, so a consumer that starts (or
// resumes) after a publish still receives them. It does not survive the process: the relay keeps
// its checkpoint where every consumer acknowledged (acknowledgedThrough), so after a restart the
// events in flight are published again.
import type { RecordedEvent } from '../../events/event.ts';
import { backoffFor, type Bus, type Consumer, type ConsumerOptions, type Delivery } from '../../ports/bus.ts';
import { Signal, untilAny } from '../signal.ts';
import { addNewest } from '../../bounded.ts';

/** Event ids remembered to drop duplicates, as JetStream's duplicate window does. */
const DUPLICATE_WINDOW = 100_000;

interface Cursor {
  /** Log index of the next event to hand out. */
  next: number;
  /** Indexes handed out and not acknowledged yet. */
  readonly unacked: Set<number>;
  active: boolean;
  /** Stream prefix of the consumer's aggregate; every event when empty. */
  prefix: string;
}

export class MemoryBus implements Bus {
  private log: RecordedEvent[] = [];
  /** Log index of `log[0]`: events before it were acknowledged by every consumer. */
  private base = 0;
  private readonly seen = new Set<string>();
  private readonly cursors = new Map<string, Cursor>();
  private readonly published = new Signal();

  async publish(event: RecordedEvent): Promise<void> {
    if (this.seen.has(event.id)) return;
    addNewest(this.seen, event.id, DUPLICATE_WINDOW);
    this.log.push(event);
    this.published.notify();
  }

  async consume(name: string, handle: (delivery: Delivery) => Promise<void>, options: ConsumerOptions = {}): Promise<Consumer> {
    let cursor = this.cursors.get(name);
    if (cursor?.active) throw new Error(`Consumer ${name} is already running`);
    const prefix = options.aggregate ? `${options.aggregate}-` : '';
    if (!cursor) this.cursors.set(name, (cursor = { next: this.base, unacked: new Set(), active: true, prefix }));
    // A resumed consumer gets again what it had not acknowledged.
    cursor.next = Math.min(cursor.next, ...cursor.unacked);
    cursor.unacked.clear();
    cursor.active = true;
    cursor.prefix = prefix;
    const state = cursor;
    const limit = Math.max(1, options.concurrency ?? 1);
    const slots = new Signal();
    const inFlight = new Set<Promise<void>>();
    const stopped = new Signal();
    let running = true;

    const deliver = async (index: number, event: RecordedEvent) => {
      for (let attempt = 1; running; attempt++) {
        try {
          await handle({ event, attempt });
          state.unacked.delete(index);
          this.trim();
          return;
        } catch {
          await stopped.wait(backoffFor(attempt));
        }
      }
    };
    const loop = async () => {
      while (running) {
        const event = this.log[state.next - this.base];
        if (!event) {
          await untilAny([this.published, stopped]);
          continue;
        }
        if (inFlight.size >= limit) {
          await untilAny([slots, stopped]);
          continue;
        }
        const index = state.next++;
        if (prefix && !event.stream.startsWith(prefix)) continue;
        state.unacked.add(index);
        const delivery = deliver(index, event).finally(() => {
          inFlight.delete(delivery);
          slots.notify();
        });
        inFlight.add(delivery);
      }
    };
    const done = loop();
    return {
      stop: async () => {
        running = false;
        stopped.notify();
        await done;
        // As JetStream's consumer does: what the handlers use may be closed once this resolves.
        await Promise.all(inFlight);
        state.active = false;
      },
    };
  }

  async pending(): Promise<Map<string, number>> {
    const pending = new Map<string, number>();
    for (const [name, cursor] of this.cursors) {
      const waiting = this.log.slice(cursor.next - this.base).filter((event) => event.stream.startsWith(cursor.prefix)).length;
      pending.set(name, waiting + cursor.unacked.size);
    }
    return pending;
  }

  async check(): Promise<void> {}

  acknowledgedThrough(published: number): number {
    const first = this.log[this.lowestUnacknowledged() - this.base];
    return first ? Math.min(first.position - 1, published) : published;
  }

  /** The log index of the first event some consumer has not acknowledged; the log's end when none. */
  private lowestUnacknowledged(): number {
    let low = this.base + this.log.length;
    for (const cursor of this.cursors.values()) low = Math.min(low, cursor.next, ...cursor.unacked);
    return low;
  }

  /** Drops the events every consumer has acknowledged. */
  private trim(): void {
    if (this.cursors.size === 0) return;
    const low = this.lowestUnacknowledged();
    if (low - this.base < 1024) return;
    this.log = this.log.slice(low - this.base);
    this.base = low;
  }

  async close(): Promise<void> {
    this.published.notify();
  }
}
