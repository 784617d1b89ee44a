import Database from 'better-sqlite3';
import { docKey, type Doc, type DocKey, type DocWrite, type FieldValue, type ReadStore } from '../../ports/read-store.ts';
import { Signal } from '../signal.ts';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const identifier = (name: string) => {
  if (!IDENTIFIER.test(name)) throw new Error(`Not a field name: ${name}`);
  return name;
};

/** The embedded read models: JSON documents per collection, in one SQLite file. */
export class SqliteReadStore implements ReadStore {
  private readonly db: Database.Database;
  private readonly committed = new Signal();
  private readonly finders = new Map<string, Database.Statement<[FieldValue], { doc: string }>>();
  private readonly statements;
  private readonly writeBatch: (checkpoints: readonly string[], position: number, writes: readonly DocWrite[]) => void;

  constructor(path: string) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL'); // rebuildable from the log, so a lost tail is re-projected
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS docs (collection TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL,
        PRIMARY KEY (collection, id)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);`);
    this.statements = {
      get: this.db.prepare<[string, string], { doc: string }>('SELECT doc FROM docs WHERE collection = ? AND id = ?'),
      all: this.db.prepare<[string], { doc: string }>('SELECT doc FROM docs WHERE collection = ?'),
      put: this.db.prepare('INSERT INTO docs (collection, id, doc) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET doc = excluded.doc'),
      delete: this.db.prepare('DELETE FROM docs WHERE collection = ? AND id = ?'),
      checkpoint: this.db.prepare<[string], { position: number }>('SELECT position FROM checkpoints WHERE name = ?'),
      minCheckpoint: this.db.prepare<[], { position: number | null; count: number }>(
        'SELECT MIN(position) AS position, COUNT(*) AS count FROM checkpoints'),
      allCheckpoints: this.db.prepare<[], { name: string; position: number }>('SELECT name, position FROM checkpoints'),
      setCheckpoint: this.db.prepare(
        'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT DO UPDATE SET position = MAX(position, excluded.position)'),
    };
    this.writeBatch = this.db.transaction((checkpoints: readonly string[], position: number, writes: readonly DocWrite[]) => {
      for (const write of writes) {
        if (write.doc === null) this.statements.delete.run(write.collection, write.id);
        else this.statements.put.run(write.collection, write.id, JSON.stringify(write.doc));
      }
      for (const name of checkpoints) this.statements.setCheckpoint.run(name, position);
    });
  }

  async get(collection: string, id: string): Promise<Doc | null> {
    const row = this.statements.get.get(collection, id);
    return row ? JSON.parse(row.doc) : null;
  }

  async getMany(keys: readonly DocKey[]): Promise<Map<string, Doc>> {
    const found = new Map<string, Doc>();
    for (const { collection, id } of keys) {
      const row = this.statements.get.get(collection, id);
      if (row) found.set(docKey(collection, id), JSON.parse(row.doc));
    }
    return found;
  }

  async find(collection: string, field: string, value: FieldValue): Promise<Doc[]> {
    // json_extract yields SQLite's 1/0 for JSON booleans.
    const bound = typeof value === 'boolean' ? Number(value) : value;
    return this.finder(collection, field).all(bound).map((row) => JSON.parse(row.doc));
  }

  async all(collection: string): Promise<Doc[]> {
    return this.statements.all.all(collection).map((row) => JSON.parse(row.doc));
  }

  /**
   * A partial index per collection and field, so a write touches only its own collection's
   * indexes. SQLite uses it only when the query names the collection and the expression
   * literally, as the finder's does.
   */
  async ensureIndex(collection: string, field: string): Promise<void> {
    this.db.exec(`CREATE INDEX IF NOT EXISTS docs_${identifier(collection)}_by_${identifier(field)}
      ON docs (json_extract(doc, '$.${field}')) WHERE collection = '${collection}'`);
  }

  private finder(collection: string, field: string) {
    const key = `${collection}.${field}`;
    let statement = this.finders.get(key);
    if (!statement) {
      statement = this.db.prepare<[FieldValue], { doc: string }>(
        `SELECT doc FROM docs WHERE collection = '${identifier(collection)}' AND json_extract(doc, '$.${identifier(field)}') = ?`);
      this.finders.set(key, statement);
    }
    return statement;
  }

  async commit(checkpoints: readonly string[], position: number, writes: readonly DocWrite[]): Promise<void> {
    this.writeBatch(checkpoints, position, writes);
    this.committed.notify();
  }

  async checkpoint(name: string): Promise<number> {
    return this.statements.checkpoint.get(name)?.position ?? 0;
  }

  async checkpoints(): Promise<Map<string, number>> {
    return new Map(this.statements.allCheckpoints.all().map((row) => [row.name, row.position]));
  }

  private reached(position: number): boolean {
    const row = this.statements.minCheckpoint.get();
    return !!row && row.count > 0 && (row.position ?? 0) >= position;
  }

  async waitFor(position: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.reached(position)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Read models did not reach position ${position} within ${timeoutMs} ms`);
      // Commits in this process wake us at once; a projector in another process is polled.
      await Promise.race([this.committed.wait(), new Promise((resolve) => setTimeout(resolve, Math.min(left, 20)))]);
    }
  }

  async clear(): Promise<void> {
    this.db.exec('DELETE FROM docs; DELETE FROM checkpoints;');
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
