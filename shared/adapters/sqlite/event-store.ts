import Database from 'better-sqlite3';
import type { NewEvent, RecordedEvent } from '../../events/event.ts';
import { upcast } from '../../events/catalogue.ts';
import type { EventFilter } from '../../events/filter.ts';
import {
  WrongExpectedVersionError, type AppendResult, type EventStore, type ExpectedRevision, type StreamRead,
} from '../../ports/event-store.ts';
import { Signal } from '../signal.ts';
import { RecentEvents } from './recent-events.ts';
import { supervise } from '../supervised.ts';
import type { WalCheckpointer } from './wal-checkpointer.ts';
import { openWalFile } from './open.ts';
import { asDiskFull, orDiskFull } from './disk-full.ts';

interface Row {
  position: number;
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
}

interface PendingAppend {
  stream: string;
  events: readonly NewEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/** What a full disk's error names. */
const LOG = 'the event log';
/** How often a subscriber looks for events appended by another process. */
const POLL_MS = 50;
/** Events a subscriber reads at a time. */
const SUBSCRIPTION_BATCH = 1000;

const toEvent = (row: Row): RecordedEvent => upcast({
  id: row.id,
  type: row.type,
  data: JSON.parse(row.data),
  metadata: JSON.parse(row.metadata),
  stream: row.stream,
  revision: row.revision,
  position: row.position,
});

const FILTER_FIELDS = ['stream', 'aggregate', 'type', 'types', 'actorId', 'from', 'to'] as const;
const CONDITIONS: Record<(typeof FILTER_FIELDS)[number], string> = {
  stream: 'stream = @stream',
  aggregate: 'stream >= @low AND stream < @high',
  type: 'type = @type',
  types: 'type IN (SELECT value FROM json_each(@types))',
  actorId: "json_extract(metadata, '$.actorId') = @actorId",
  // occurredAt is ISO-8601 UTC with milliseconds, so text order is time order.
  from: "json_extract(metadata, '$.occurredAt') >= @from",
  to: "json_extract(metadata, '$.occurredAt') < @to",
};

/** An append's events as the log now holds them: the last of them is at the result's revision and position. */
const recorded = (append: PendingAppend, result: AppendResult): RecordedEvent[] => {
  const first = append.events.length - 1;
  return append.events.map((event, i) => upcast({
    ...event, stream: append.stream, revision: result.revision - first + i, position: result.position - first + i,
  }));
};

const matches = (expected: ExpectedRevision, current: number) =>
  expected === 'any' || (expected === 'no_stream' ? current === -1 : expected === current);

/**
 * The embedded event log: one SQLite file. Appends that arrive in the same turn of the event loop
 * are committed in one transaction (one fsync), each inside its own savepoint so that one
 * request's conflict never touches another's events.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly appended = new Signal();
  private readonly checkpointer: WalCheckpointer | null;
  private readonly recent = new RecentEvents();
  private pending: PendingAppend[] = [];
  private readonly statements;
  /** Filtered reads, one prepared statement per combination of filter fields. */
  private readonly filtered = new Map<string, Database.Statement<Record<string, unknown>, Row>>();
  private readonly appendOne: (append: PendingAppend) => AppendResult;
  private readonly flushBatch: Database.Transaction<(batch: PendingAppend[]) => Array<AppendResult | Error>>;

  constructor(private readonly path: string, options: { synchronous?: 'FULL' | 'NORMAL' } = {}) {
    // No AUTOINCREMENT: events are never deleted, so a new row's rowid (the largest one plus one) is
    // already past every position ever given, and SQLite's sequence table would be one more write
    // per event (about 6 % of an append's cost). A log made with it keeps it and works the same.
    ({ db: this.db, checkpointer: this.checkpointer } = openWalFile(path, {
      synchronous: options.synchronous ?? 'FULL', what: LOG, schema: `
      CREATE TABLE IF NOT EXISTS events (
        position INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        stream TEXT NOT NULL,
        revision INTEGER NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL,
        metadata TEXT NOT NULL,
        UNIQUE (stream, revision)
      );
      CREATE INDEX IF NOT EXISTS events_by_type ON events (type, position);
      CREATE INDEX IF NOT EXISTS events_by_actor ON events (json_extract(metadata, '$.actorId'), position);
      CREATE TABLE IF NOT EXISTS instance_key_check (only INTEGER PRIMARY KEY CHECK (only = 1), proof TEXT NOT NULL);`,
    }));
    this.statements = {
      revision: this.db.prepare<[string], { revision: number | null }>(
        'SELECT MAX(revision) AS revision FROM events WHERE stream = ?'),
      insert: this.db.prepare(
        'INSERT INTO events (id, stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)'),
      stream: this.db.prepare<[string], Row>('SELECT * FROM events WHERE stream = ? ORDER BY revision'),
      after: this.db.prepare<[number, number], Row>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?'),
      head: this.db.prepare<[], { head: number | null }>('SELECT MAX(position) AS head FROM events'),
    };
    const appendRows = (append: PendingAppend): AppendResult => {
      let revision = this.statements.revision.get(append.stream)?.revision ?? -1;
      if (!matches(append.expected, revision)) {
        throw new WrongExpectedVersionError(append.stream, append.expected, revision);
      }
      let position = 0;
      for (const event of append.events) {
        revision++;
        const info = this.statements.insert.run(event.id, append.stream, revision, event.type,
          JSON.stringify(event.data), JSON.stringify(event.metadata));
        position = Number(info.lastInsertRowid);
      }
      return { revision, position };
    };
    // Several events go in a savepoint, so a failure part-way leaves none of them; one event needs
    // none: its revision is checked before it is written, and a failed insert writes nothing.
    const inSavepoint = this.db.transaction(appendRows);
    this.appendOne = (append) => (append.events.length === 1 ? appendRows(append) : inSavepoint(append));
    this.flushBatch = this.db.transaction((batch: PendingAppend[]) =>
      batch.map((append) => {
        try {
          return this.appendOne(append);
        } catch (error) {
          // SQLite rolled the whole transaction back (a full disk does): no append of the batch can
          // be committed with it now, and one run after it would commit alone, outside the batch.
          if (!this.db.inTransaction) throw error;
          return error instanceof Error ? error : new Error(String(error));
        }
      }));
  }

  append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ stream, events, expected, resolve, reject });
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    let results: Array<AppendResult | Error>;
    try {
      // IMMEDIATE: take the write lock before reading revisions, so another process sharing the file
      // makes this wait (busy_timeout) instead of failing the read-then-write upgrade.
      results = this.flushBatch.immediate(batch);
    } catch (error) {
      const failure = this.diskFull(error);
      for (const append of batch) append.reject(failure);
      return;
    }
    const committed: RecordedEvent[] = [];
    batch.forEach((append, i) => {
      const result = results[i]!;
      if (result instanceof Error) return append.reject(this.diskFull(result));
      committed.push(...recorded(append, result));
      append.resolve(result);
    });
    this.recent.add(committed);
    this.checkpointer?.committed();
    this.appended.notify();
  }

  /** A full disk's error says so (the API answers 503 naming it); any other stays as it is. */
  private diskFull(error: unknown): unknown {
    return asDiskFull(error, this.path, LOG);
  }

  async readStream(stream: string): Promise<StreamRead> {
    const events = this.statements.stream.all(stream).map(toEvent);
    return { events, revision: events.length - 1 };
  }

  async readAll(after: number, limit: number): Promise<readonly RecordedEvent[]> {
    return this.recent.after(after, limit) ?? this.statements.after.all(after, limit).map(toEvent);
  }

  async readFiltered(filter: EventFilter, after: number, limit: number): Promise<readonly RecordedEvent[]> {
    const used = FILTER_FIELDS.filter((field) => filter[field] !== undefined);
    const key = used.join(',');
    let statement = this.filtered.get(key);
    if (!statement) {
      const where = ['position > @after', ...used.map((field) => CONDITIONS[field])].join(' AND ');
      statement = this.db.prepare<Record<string, unknown>, Row>(`SELECT * FROM events WHERE ${where} ORDER BY position LIMIT @limit`);
      this.filtered.set(key, statement);
    }
    const { aggregate, types, ...rest } = filter;
    // '.' follows '-': the streams of one aggregate type are the range [`x-`, `x.`), which the index serves.
    const range = aggregate === undefined ? {} : { low: `${aggregate}-`, high: `${aggregate}.` };
    const listed = types === undefined ? {} : { types: JSON.stringify(types) };
    return statement.all({ ...rest, ...range, ...listed, after, limit }).map(toEvent);
  }

  async head(): Promise<number> {
    return this.statements.head.get()?.head ?? 0;
  }

  /**
   * The instance key's check (shared/runtime/key-check.ts), kept beside the events rather than as
   * one: the embedded log's positions and history stay the events' alone.
   */
  async readKeyCheck(): Promise<string | null> {
    return this.db.prepare<[], { proof: string }>('SELECT proof FROM instance_key_check').get()?.proof ?? null;
  }

  /** Writes `proof` unless a check is there already (another process was first): whether it did. */
  async writeKeyCheckOnce(proof: string): Promise<boolean> {
    return orDiskFull(this.path, LOG, () =>
      this.db.prepare('INSERT OR IGNORE INTO instance_key_check (only, proof) VALUES (1, ?)').run(proof).changes === 1);
  }

  subscribe(after: number, onEvents: (events: readonly RecordedEvent[]) => Promise<void>) {
    // Appends in this process wake the subscriber at once; another process's appends are polled.
    const changed = () => this.appended.wait(POLL_MS);
    return supervise({ read: (position) => this.readAll(position, SUBSCRIPTION_BATCH), batchSize: SUBSCRIPTION_BATCH, changed }, after, onEvents);
  }

  async close(): Promise<void> {
    if (this.pending.length > 0) this.flush();
    this.db.close();
    // The worker's connection closes last, so it checkpoints what is left and removes the log.
    await this.checkpointer?.close();
  }
}
