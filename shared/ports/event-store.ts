import type { NewEvent, RecordedEvent } from '../events/event.ts';
import type { EventFilter } from '../events/filter.ts';

/** `no_stream`: the stream must not exist; `any`: no check; a number: the stream's last revision. */
export type ExpectedRevision = 'no_stream' | 'any' | number;

export interface AppendResult {
  /** Revision of the last event appended to the stream. */
  readonly revision: number;
  /** Log position of the last event appended. */
  readonly position: number;
}

export class WrongExpectedVersionError extends Error {
  constructor(readonly stream: string, readonly expected: ExpectedRevision, readonly actual: number) {
    super(`Stream ${stream}: expected revision ${String(expected)}, found ${actual}`);
    this.name = 'WrongExpectedVersionError';
  }
}

export interface StreamRead {
  readonly events: readonly RecordedEvent[];
  /** Revision of the last event, -1 when the stream does not exist. */
  readonly revision: number;
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface EventStore {
  append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  readStream(stream: string): Promise<StreamRead>;
  /** Events strictly after `position`, oldest first. Position 0 reads from the start. */
  readAll(after: number, limit: number): Promise<readonly RecordedEvent[]>;
  /**
   * Up to `limit` events matching `filter`, strictly after `after`, oldest first (the auditors'
   * history). An adapter without a query of its own may use `readFilteredByScan`.
   */
  readFiltered(filter: EventFilter, after: number, limit: number): Promise<readonly RecordedEvent[]>;
  /** Position of the last event in the log, 0 when empty. */
  head(): Promise<number>;
  /** Catch up from strictly after `after`, then follow live; batches are delivered in order, one at a time. */
  subscribe(after: number, onEvents: (events: readonly RecordedEvent[]) => Promise<void>): Subscription;
  close(): Promise<void>;
}

/**
 * How many events follow `position`, counted up to `cap`. Positions are not counts (EventStoreDB's
 * are byte offsets of its log): the distance between two says nothing of the events between them.
 */
export async function countAfter(store: EventStore, position: number, cap: number): Promise<number> {
  return (await store.readAll(position, cap)).length;
}

/** Every event `read` answers from the start of the log on, a page at a time (a reader of readAll's or readFiltered's shape). */
export async function* everyEvent(
  read: (after: number, limit: number) => Promise<readonly RecordedEvent[]>, page = 1000,
): AsyncGenerator<RecordedEvent> {
  for (let after = 0; ;) {
    const events = await read(after, page);
    yield* events;
    if (events.length < page) return;
    after = events.at(-1)!.position;
  }
}
