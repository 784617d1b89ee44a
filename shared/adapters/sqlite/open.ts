import Database from 'better-sqlite3';
import { checkpointInWorker, type WalCheckpointer } from './wal-checkpointer.ts';

/**
 * Pages each connection keeps in memory, KiB (SQLite's own default). The driver is built with
 * 16 MB instead: that cache fills as the files grow and stays, about 17 MB of resident memory per
 * file, while the pages a command touches (the ends of the time-ordered indexes, a few streams)
 * fit in far less, and the kernel's page cache keeps the rest of the files anyway.
 */
const CACHE_KIB = 2000;

/**
 * One of Berth's SQLite files, opened as both stores use them: a write-ahead log checkpointed on
 * the worker thread, waits for another process's writer, and `synchronous` as the store needs it.
 */
export function openWalFile(path: string, synchronous: 'FULL' | 'NORMAL'): { db: Database.Database; checkpointer: WalCheckpointer | null } {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // Several processes may share the file (a projections or reactors process beside the API).
  db.pragma('busy_timeout = 5000');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma(`cache_size = -${CACHE_KIB}`);
  return { db, checkpointer: checkpointInWorker(db, path) };
}
