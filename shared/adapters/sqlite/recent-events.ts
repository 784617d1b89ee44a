import type { RecordedEvent } from '../../events/event.ts';

/** How many of the newest events are kept; the live subscribers are rarely more than a batch behind. */
const KEPT = 1024;

/**
 * The newest events this process committed, as one unbroken run of positions, so its own
 * subscribers (the projections) read them back without a query or a parse. An event appended by
 * another process breaks the run, and a read that the run does not cover goes to the log.
 */
export class RecentEvents {
  private run: RecordedEvent[] = [];

  add(committed: readonly RecordedEvent[]): void {
    if (committed.length === 0) return;
    const last = this.run[this.run.length - 1];
    if (!last || committed[0]!.position !== last.position + 1) this.run = [];
    this.run.push(...committed);
    if (this.run.length > KEPT) this.run = this.run.slice(this.run.length - KEPT);
  }

  /** The events after `after`, at most `limit`, or null when the run does not start by `after + 1`. */
  after(after: number, limit: number): RecordedEvent[] | null {
    const first = this.run[0];
    if (!first || after + 1 < first.position) return null;
    const from = after + 1 - first.position;
    if (from >= this.run.length) return null;
    return this.run.slice(from, from + limit);
  }
}
