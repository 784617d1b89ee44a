import Database from 'better-sqlite3';
import { docKey, type Doc, type DocKey, type DocWrite, type FieldValue, type ReadStore } from '../../ports/read-store.ts';
import { WeighedMap } from '../../bounded.ts';
import { Signal, untilAny } from '../signal.ts';
import type { WalCheckpointer } from './wal-checkpointer.ts';
import { openWalFile } from './open.ts';
import { CollectionTables, identifier } from './collection-tables.ts';
import { asDiskFull } from './disk-full.ts';

/** Documents kept in memory at most; past it the oldest go. */
const CACHED_DOCS = 8192;
/** And the documents' JSON text at most, characters: a few large records (a long env, a stack file) would otherwise fill the count. */
const CACHED_DOC_CHARS = 16 * 1024 * 1024;
/** What a document known to be absent (or an empty lookup answer) weighs in the cache. */
const ABSENT = 1;
/** Lookup answers kept per collection at most (all dropped when the collection is written), and their JSON text, characters; an answer heavier than that (a large collection's `all`) is not kept. */
const CACHED_LOOKUPS = 2048;
const CACHED_LOOKUP_CHARS = 4 * 1024 * 1024;
/** What a full disk's error names. */
const MODELS = 'the read models';
/**
 * The read models' page, in a file made new. Each commit writes every page it touched to the
 * write-ahead log again, and under load the read models' log took about 17,000 pages a second:
 * its sync at each checkpoint held the event log's commits up for 10-25 ms, about once a second.
 * Pages of 1 KB rather than SQLite's 4 KB write a quarter of the bytes for the same changes: in
 * paired runs of the commands load, p99 13 ms against 15, fewer requests caught in a commit slower
 * than 5 ms (0.7 % against 0.9 %), queries and rebuilds within a few per cent. A file made with
 * another page size keeps it (SQLite changes it only by copying the file).
 */
const MODELS_PAGE_BYTES = 1024;

/**
 * The embedded read models: JSON documents, a table per collection, in one SQLite file. With `cache`,
 * parsed documents and lookups are kept in memory and updated from the writes this instance
 * commits: only for a store that is the sole writer of its file (projections in this process).
 */
export class SqliteReadStore implements ReadStore {
  private readonly db: Database.Database;
  private readonly docs = new WeighedMap<string, Doc | null>(CACHED_DOCS, CACHED_DOC_CHARS);
  /** Lookup answers per collection, dropped whenever the collection is written. */
  private readonly lookups = new Map<string, WeighedMap<string, Doc[]>>();
  private readonly cache: boolean;
  /** The checkpoints this instance committed, when it is the writer. */
  private readonly committedCheckpoints = new Map<string, number>();
  private readonly committed = new Signal();
  private readonly checkpointer: WalCheckpointer | null;
  /** Callers waiting for this instance's own commits to reach a position, when it is the writer. */
  private readonly waiters = new Set<{ readonly position: number; readonly reached: () => void }>();
  /** Writes committed through this instance: its `version()` when it is the sole writer. */
  private writes = 0;
  private readonly finders = new Map<string, Database.Statement<[FieldValue], { doc: string }>>();
  private readonly statements;
  private readonly tables: CollectionTables;
  /** Commits the writes and checkpoints; answers each write's JSON length (what it weighs in the cache). */
  private readonly writeBatch: (checkpoints: readonly string[], position: number, writes: readonly DocWrite[]) => number[];

  constructor(private readonly path: string, options: { cache?: boolean } = {}) {
    this.cache = options.cache ?? false;
    // NORMAL: rebuildable from the log, so a lost tail is re-projected. Small pages: see MODELS_PAGE_BYTES.
    ({ db: this.db, checkpointer: this.checkpointer } = openWalFile(path, {
      synchronous: 'NORMAL', pageBytes: MODELS_PAGE_BYTES, what: MODELS, schema: 'CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL)',
    }));
    this.tables = new CollectionTables(this.db);
    this.statements = {
      checkpoint: this.db.prepare<[string], { position: number }>('SELECT position FROM checkpoints WHERE name = ?'),
      minCheckpoint: this.db.prepare<[], { position: number | null; count: number }>(
        'SELECT MIN(position) AS position, COUNT(*) AS count FROM checkpoints'),
      allCheckpoints: this.db.prepare<[], { name: string; position: number }>('SELECT name, position FROM checkpoints'),
      // One statement for every name: a batch moves all of a runner's checkpoints together.
      setCheckpoints: this.db.prepare<[number, string]>(`INSERT INTO checkpoints (name, position) SELECT value, ? FROM json_each(?) WHERE true
        ON CONFLICT DO UPDATE SET position = MAX(position, excluded.position)`),
    };
    this.writeBatch = this.db.transaction((checkpoints: readonly string[], position: number, writes: readonly DocWrite[]) => {
      const weights = writes.map((write) => {
        const table = this.tables.made(write.collection);
        if (write.doc === null) {
          table.remove.run(write.id);
          return ABSENT;
        }
        const text = JSON.stringify(write.doc);
        table.put.run(write.id, text);
        return text.length;
      });
      if (checkpoints.length > 0) this.statements.setCheckpoints.run(position, JSON.stringify(checkpoints));
      return weights;
    });
  }

  private readonly replace = (collections: readonly string[], docs: readonly DocWrite[], checkpoints: readonly string[], position: number) =>
    this.db.transaction(() => {
      for (const collection of collections) this.tables.existing(collection)?.empty.run();
      return this.writeBatch(checkpoints, position, docs);
    })();

  private read(collection: string, id: string): Doc | null {
    const key = docKey(collection, id);
    if (this.cache && this.docs.has(key)) return this.docs.get(key)!;
    const row = this.tables.existing(collection)?.get.get(id);
    const doc: Doc | null = row ? JSON.parse(row.doc) : null;
    if (this.cache) this.docs.set(key, doc, row ? row.doc.length : ABSENT);
    return doc;
  }

  private lookup(collection: string, key: string, query: () => Array<{ doc: string }>): Doc[] {
    const parsed = (rows: Array<{ doc: string }>) => rows.map((row) => JSON.parse(row.doc) as Doc);
    if (!this.cache) return parsed(query());
    let answers = this.lookups.get(collection);
    if (!answers) this.lookups.set(collection, (answers = new WeighedMap(CACHED_LOOKUPS, CACHED_LOOKUP_CHARS)));
    let docs = answers.get(key);
    if (!docs) {
      const rows = query();
      answers.set(key, (docs = parsed(rows)), rows.reduce((sum, row) => sum + row.doc.length, ABSENT));
    }
    return [...docs];
  }

  async get(collection: string, id: string): Promise<Doc | null> {
    return this.read(collection, id);
  }

  async getMany(keys: readonly DocKey[]): Promise<Map<string, Doc>> {
    const found = new Map<string, Doc>();
    for (const { collection, id } of keys) {
      const doc = this.read(collection, id);
      if (doc) found.set(docKey(collection, id), doc);
    }
    return found;
  }

  async find(collection: string, field: string, value: FieldValue): Promise<Doc[]> {
    // json_extract yields SQLite's 1/0 for JSON booleans.
    const bound = typeof value === 'boolean' ? Number(value) : value;
    return this.lookup(collection, `${field}\u0000${typeof value}\u0000${String(value)}`,
      () => this.finder(collection, field)?.all(bound) ?? []);
  }

  async all(collection: string): Promise<Doc[]> {
    return this.lookup(collection, '', () => this.tables.existing(collection)?.all.all() ?? []);
  }

  /** An index on the field in the collection's table. SQLite uses it when a query names the expression literally, as the finder's does. */
  async ensureIndex(collection: string, field: string): Promise<void> {
    this.onDisk(() => {
      const { name } = this.tables.made(collection);
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${name}_by_${identifier(field)} ON ${name} (json_extract(doc, '$.${field}'))`);
    });
  }

  /** The lookup of a collection by a field; null while the collection has no table. */
  private finder(collection: string, field: string) {
    const key = `${collection}.${field}`;
    let statement = this.finders.get(key);
    if (!statement) {
      const table = this.tables.existing(collection);
      if (!table) return null;
      statement = this.db.prepare<[FieldValue], { doc: string }>(`SELECT doc FROM ${table.name} WHERE json_extract(doc, '$.${identifier(field)}') = ?`);
      this.finders.set(key, statement);
    }
    return statement;
  }

  /** Runs a write, a full disk failing it with an error that says so (the caches stay as they were). */
  private onDisk<T>(write: () => T): T {
    try {
      return write();
    } catch (error) {
      // A table the write made went with its rollback.
      this.tables.forget();
      throw asDiskFull(error, this.path, MODELS);
    }
  }

  /** The documents just written, as the newest kept (each weighing its JSON's length); their collections' lookups are stale now. */
  private keep(writes: readonly DocWrite[], weights: readonly number[]): void {
    writes.forEach((write, i) => {
      this.docs.set(docKey(write.collection, write.id), write.doc, weights[i]!);
      this.lookups.delete(write.collection);
    });
  }

  version(): number | null {
    return this.cache ? this.writes : null;
  }

  async commit(checkpoints: readonly string[], position: number, writes: readonly DocWrite[]): Promise<void> {
    const weights = this.onDisk(() => this.writeBatch(checkpoints, position, writes));
    if (writes.length > 0) this.writes += 1;
    if (this.cache) {
      for (const name of checkpoints) {
        this.committedCheckpoints.set(name, Math.max(position, this.committedCheckpoints.get(name) ?? 0));
      }
      this.keep(writes, weights);
      this.release();
    }
    this.checkpointer?.committed();
    this.committed.notify();
  }

  async replaceCollections(collections: readonly string[], docs: readonly DocWrite[], checkpoints: readonly string[], position: number): Promise<void> {
    const weights = this.onDisk(() => this.replace(collections, docs, checkpoints, position));
    this.writes += 1;
    if (this.cache) {
      for (const key of [...this.docs.keys()]) if (collections.includes(key.slice(0, key.indexOf('\u0000')))) this.docs.delete(key);
      this.keep(docs, weights);
      for (const collection of collections) this.lookups.delete(collection);
      for (const name of checkpoints) this.committedCheckpoints.set(name, Math.max(position, this.committedCheckpoints.get(name) ?? 0));
      this.release();
    }
    this.checkpointer?.committed();
    this.committed.notify();
  }

  async checkpoint(name: string): Promise<number> {
    return this.statements.checkpoint.get(name)?.position ?? 0;
  }

  async checkpoints(): Promise<Map<string, number>> {
    // The sole writer knows what it committed.
    if (this.knowsCheckpoints()) return new Map(this.committedCheckpoints);
    return new Map(this.statements.allCheckpoints.all().map((row) => [row.name, row.position]));
  }

  /** Whether this instance is the writer and has committed the checkpoints: it then knows them without a read. */
  private knowsCheckpoints(): boolean {
    return this.cache && this.committedCheckpoints.size > 0;
  }

  private lowestCommitted(): number {
    let lowest = Infinity;
    for (const at of this.committedCheckpoints.values()) lowest = Math.min(lowest, at);
    return lowest;
  }

  private reached(position: number): boolean {
    if (this.knowsCheckpoints()) return this.lowestCommitted() >= position;
    const row = this.statements.minCheckpoint.get();
    return !!row && row.count > 0 && (row.position ?? 0) >= position;
  }

  async waitFor(position: number, timeoutMs: number): Promise<void> {
    if (this.reached(position)) return;
    if (this.knowsCheckpoints()) return this.waitForCommit(position, timeoutMs);
    const deadline = Date.now() + timeoutMs;
    while (!this.reached(position)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Read models did not reach position ${position} within ${timeoutMs} ms`);
      // Commits in this process wake us at once; a projector in another process is polled.
      await untilAny([this.committed], { timeoutMs: Math.min(left, 20), holdProcess: true });
    }
  }

  /** Resolved by the commit that reaches `position`: no wake-up, timer or read per commit for each waiter. */
  private waitForCommit(position: number, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter = { position, reached: () => { clearTimeout(timer); resolve(); } };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`Read models did not reach position ${position} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Tells the waiters that this instance's commits reached. */
  private release(): void {
    if (this.waiters.size === 0) return;
    const lowest = this.lowestCommitted();
    for (const waiter of this.waiters) {
      if (waiter.position > lowest) continue;
      this.waiters.delete(waiter);
      waiter.reached();
    }
  }

  async clear(): Promise<void> {
    this.onDisk(() => this.db.transaction(() => {
      for (const collection of this.tables.collections()) this.tables.existing(collection)?.empty.run();
      this.db.exec('DELETE FROM checkpoints');
    })());
    this.writes += 1;
    this.docs.clear();
    this.lookups.clear();
    this.committedCheckpoints.clear();
  }

  async close(): Promise<void> {
    this.db.close();
    // The worker's connection closes last, so it checkpoints what is left and removes the log.
    await this.checkpointer?.close();
  }
}
