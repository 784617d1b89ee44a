import {
  ANY, BACKWARDS, END, EventStoreDBClient, FORWARDS, NO_STREAM, StreamNotFoundError,
  WrongExpectedVersionError as ClientWrongExpectedVersion, type AppendExpectedRevision, type Position, type ResolvedEvent,
  type StreamingRead,
} from '@eventstore/db-client';
import type { NewEvent, RecordedEvent } from '../../events/event.ts';
import { matchesFilter, readFilteredByScan, type EventFilter } from '../../events/filter.ts';
import {
  WrongExpectedVersionError, type AppendResult, type EventStore, type ExpectedRevision, type StreamRead,
} from '../../ports/event-store.ts';
import { orUnavailable } from '../../ports/unavailable.ts';
import { commitOf, fromPosition, isSystem, toPosition, toRecorded, toStored } from './envelope.ts';
import { isEsdbOutage, isTlsMismatch, ReadDeadlineError, TlsMismatchError } from './outage.ts';
import { subscribeToAll } from './subscription.ts';

/**
 * How long a read may wait for its next event. The client gives streaming reads no deadline (its
 * `deadline` option is overridden for them), so a server that stops answering, or a reconnect to
 * it, would hold the caller for ever.
 */
const READ_DEADLINE_MS = 10_000;

/** Reads to the end, failing with ReadDeadlineError (an outage) once nothing arrived for `idleMs`. */
async function drain<T>(source: StreamingRead<T>, idleMs = READ_DEADLINE_MS): Promise<T[]> {
  let timer: NodeJS.Timeout | undefined;
  let expire: (error: Error) => void = () => {};
  const expired = new Promise<never>((_resolve, reject) => { expire = reject; });
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // Not awaited: cancelling waits for the call to have started, which a hung server may never let happen.
      source.cancel().catch(() => {});
      source.destroy();
      expire(new ReadDeadlineError(idleMs));
    }, idleMs);
  };
  const collect = async () => {
    const all: T[] = [];
    arm();
    for await (const item of source) {
      all.push(item);
      arm();
    }
    return all;
  };
  try {
    return await Promise.race([collect(), expired]);
  } finally {
    clearTimeout(timer);
  }
}

const revisionOf = (expected: ExpectedRevision): AppendExpectedRevision =>
  expected === 'no_stream' ? NO_STREAM : expected === 'any' ? ANY : BigInt(expected);

/** The scaled-out event log: EventStoreDB over gRPC. Positions are $all commit positions. */
export class EventStoreDbEventStore implements EventStore {
  private constructor(private readonly client: EventStoreDBClient) {}

  /** Connects and proves the server answers, or throws UnavailableError. */
  static async connect(url: string): Promise<EventStoreDbEventStore> {
    const store = new EventStoreDbEventStore(EventStoreDBClient.connectionString(url));
    try {
      await store.head();
    } catch (error) {
      await store.close();
      throw isTlsMismatch(error) ? new TlsMismatchError(error) : error;
    }
    return store;
  }

  private io<T>(operation: () => Promise<T>): Promise<T> {
    return orUnavailable('the event store (EventStoreDB)', isEsdbOutage, operation);
  }

  async append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const result = await this.io(async () => {
      try {
        return await this.client.appendToStream(stream, events.map(toStored), { expectedRevision: revisionOf(expected) });
      } catch (error) {
        if (!(error instanceof ClientWrongExpectedVersion)) throw error;
        const actual = typeof error.actualVersion === 'bigint' ? Number(error.actualVersion) : -1;
        throw new WrongExpectedVersionError(stream, expected, actual);
      }
    });
    const revision = Number(result.nextExpectedRevision);
    // The answer's position is the write's; with several events, the last one's is read back.
    if (events.length === 1 && result.position) return { revision, position: toPosition(result.position.commit) };
    const [last] = await this.readEvents(this.client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 }));
    return { revision, position: last!.position };
  }

  private async readEvents(source: StreamingRead<ResolvedEvent>): Promise<RecordedEvent[]> {
    return this.io(async () => {
      try {
        return (await drain(source)).filter((resolved) => !isSystem(resolved)).map(toRecorded);
      } catch (error) {
        if (!(error instanceof StreamNotFoundError)) throw error;
        return [];
      }
    });
  }

  async readStream(stream: string): Promise<StreamRead> {
    const events = await this.readEvents(this.client.readStream(stream, { direction: FORWARDS }));
    return { events, revision: events.length === 0 ? -1 : events[events.length - 1]!.revision };
  }

  async readAll(after: number, limit: number): Promise<readonly RecordedEvent[]> {
    const found: RecordedEvent[] = [];
    // Reading from a position includes the event there, and system events are dropped here: read
    // on until `limit` of Berth's own are there or the log ends, each page from the last entry
    // seen (system or not), keeping only what lies after it, so no event is taken twice.
    let seen = BigInt(after);
    for (;;) {
      const page = await this.io(() => drain(this.client.readAll({ fromPosition: fromPosition(Number(seen)), maxCount: limit + 1, direction: FORWARDS })));
      for (const entry of page) {
        const position = commitOf(entry);
        if (position === undefined || position <= seen) continue;
        seen = position;
        if (!isSystem(entry) && found.length < limit) found.push(toRecorded(entry));
      }
      if (found.length >= limit || page.length < limit + 1) return found;
    }
  }

  /** One stream's history is read from the stream; anything else is a scan of $all. */
  async readFiltered(filter: EventFilter, after: number, limit: number): Promise<readonly RecordedEvent[]> {
    if (filter.stream === undefined) return readFilteredByScan((from, count) => this.readAll(from, count), filter, after, limit);
    const { events } = await this.readStream(filter.stream);
    return events.filter((event) => event.position > after && matchesFilter(event, filter)).slice(0, limit);
  }

  async head(): Promise<number> {
    // Every read is drained to its end: a call left half-read is never released by the client.
    let from: Position | typeof END = END;
    for (;;) {
      const page = await this.io(() => drain(this.client.readAll({ fromPosition: from, direction: BACKWARDS, maxCount: 50 })));
      const own = page.find((entry) => !isSystem(entry));
      if (own) return toRecorded(own).position;
      const last = page[page.length - 1]?.event?.position;
      if (page.length < 50 || !last) return 0;
      from = last;
    }
  }

  subscribe(after: number, onEvents: (events: readonly RecordedEvent[]) => Promise<void>) {
    return subscribeToAll(this.client, after, onEvents);
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}
