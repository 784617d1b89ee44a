// The read models keep each collection in a table of its own. They were one table for every
// collection, with a partial index per looked-up field; SQLite then tested every partial index's
// condition on every write, whatever the collection: a quarter of the cost of writing a document.
import type Database from 'better-sqlite3';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A collection or field name, checked before it becomes part of a statement. */
export const identifier = (name: string): string => {
  if (!IDENTIFIER.test(name)) throw new Error(`Not a field name: ${name}`);
  return name;
};

const PREFIX = 'collection_';

export interface CollectionTable {
  /** The SQL name of the table. */
  readonly name: string;
  readonly get: Database.Statement<[string], { doc: string }>;
  readonly all: Database.Statement<[], { doc: string }>;
  readonly put: Database.Statement<[string, string]>;
  readonly remove: Database.Statement<[string]>;
  readonly empty: Database.Statement<[]>;
}

export class CollectionTables {
  private readonly known = new Map<string, CollectionTable>();
  private readonly exists: Database.Statement<[string], number>;

  constructor(private readonly db: Database.Database) {
    this.exists = db.prepare<[string], number>("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").pluck();
    this.moveSharedTable();
  }

  /** The collection's table, made if it is not there yet. */
  made(collection: string): CollectionTable {
    const known = this.known.get(collection);
    if (known) return known;
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${PREFIX}${identifier(collection)} (id TEXT PRIMARY KEY, doc TEXT NOT NULL) WITHOUT ROWID`);
    return this.statementsOf(collection);
  }

  /** The collection's table, or null while no document of it was ever written (by any process). */
  existing(collection: string): CollectionTable | null {
    const known = this.known.get(collection);
    if (known) return known;
    return this.exists.get(`${PREFIX}${identifier(collection)}`) ? this.statementsOf(collection) : null;
  }

  /**
   * After a write that failed: a table it made went with its rollback (a full disk), and statements
   * kept for it would fail for good. The tables that are there are found again as they are used.
   */
  forget(): void {
    this.known.clear();
  }

  /** The collections that have a table in the file. */
  collections(): string[] {
    return this.db.prepare<[], string>(`SELECT substr(name, ${PREFIX.length + 1}) FROM sqlite_master WHERE type = 'table' AND name GLOB '${PREFIX}*'`)
      .pluck().all();
  }

  private statementsOf(collection: string): CollectionTable {
    const name = `${PREFIX}${identifier(collection)}`;
    const table: CollectionTable = {
      name,
      get: this.db.prepare(`SELECT doc FROM ${name} WHERE id = ?`),
      all: this.db.prepare(`SELECT doc FROM ${name}`),
      put: this.db.prepare(`INSERT INTO ${name} (id, doc) VALUES (?, ?) ON CONFLICT DO UPDATE SET doc = excluded.doc`),
      remove: this.db.prepare(`DELETE FROM ${name} WHERE id = ?`),
      empty: this.db.prepare(`DELETE FROM ${name}`),
    };
    this.known.set(collection, table);
    return table;
  }

  /**
   * A file written before collections had tables of their own: its documents move to them, once,
   * under the write lock (another process opening the file at the same time finds them moved).
   * The old table's partial indexes go with it; the projections declare their lookups again.
   * Looked for first without the lock, so opening a file already moved writes nothing.
   */
  private moveSharedTable(): void {
    if (!this.exists.get('docs')) return;
    this.db.transaction(() => {
      if (!this.exists.get('docs')) return;
      const collections = this.db.prepare<[], string>('SELECT DISTINCT collection FROM docs').pluck().all();
      for (const collection of collections) {
        this.db.prepare(`INSERT INTO ${this.made(collection).name} (id, doc) SELECT id, doc FROM docs WHERE collection = ?`).run(collection);
      }
      this.db.exec('DROP TABLE docs');
    }).immediate();
  }
}
