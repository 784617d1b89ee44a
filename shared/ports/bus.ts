// The bus carries every event of the log, in log order, from the relay to the reactors.
// Delivery is at least once: a consumer acknowledges an event by resolving its handler, and an
// event whose handler throws comes back later (with back-off). Consumers are durable: a named
// consumer resumes where it acknowledged, across restarts of the bus and of the consumer.
import type { RecordedEvent } from '../events/event.ts';

export interface Delivery {
  readonly event: RecordedEvent;
  /** 1 on the first delivery, more on a redelivery. */
  readonly attempt: number;
}

export interface ConsumerOptions {
  /** Only events of this aggregate (stream prefix); every event when left out. */
  readonly aggregate?: string;
  /** Events handled at once; only 1 keeps the log's order (the default). */
  readonly concurrency?: number;
}

export interface Consumer {
  stop(): Promise<void>;
}

export interface Bus {
  /** Publishes one event; publishing the same event id again is dropped as a duplicate. */
  publish(event: RecordedEvent): Promise<void>;
  /** Starts (or resumes) the durable consumer `name`. */
  consume(name: string, handle: (delivery: Delivery) => Promise<void>, options?: ConsumerOptions): Promise<Consumer>;
  /** Events each durable consumer has not acknowledged yet (delivered or not), by consumer name. */
  pending(): Promise<Map<string, number>>;
  /**
   * Left out by a bus that keeps what it took across restarts. One that does not outlive its
   * process answers the position through which every consumer acknowledged every event it took (at
   * most `published`, the last it took): the relay keeps its checkpoint there, so a restart
   * publishes again what was not handled, and nothing is lost with the process.
   */
  acknowledgedThrough?(published: number): number;
  /** Resolves while the bus can be reached, rejects saying why not (readiness). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** The subject of an event: `berth.events.<aggregate>.<type>`. */
export const subjectOf = (event: RecordedEvent): string =>
  `${SUBJECT_ROOT}.${event.stream.slice(0, event.stream.indexOf('-'))}.${event.type}`;

export const SUBJECT_ROOT = 'berth.events';

/** Waits before the n-th redelivery of a failed event: quick first, then slower, capped. */
export const REDELIVERY_BACKOFF_MS: readonly number[] = [200, 1000, 5000, 15000, 30000];
export const backoffFor = (attempt: number): number =>
  REDELIVERY_BACKOFF_MS[Math.min(attempt - 1, REDELIVERY_BACKOFF_MS.length - 1)]!;
