import Database from 'better-sqlite3';
import { checkpointInWorker, type WalCheckpointer } from './wal-checkpointer.ts';
import { orDiskFull } from './disk-full.ts';

/**
 * Pages each connection keeps in memory, KiB (SQLite's own default). The driver is built with
 * 16 MB instead: that cache fills as the files grow and stays, about 17 MB of resident memory per
 * file, while the pages a command touches (the ends of the time-ordered indexes, a few streams)
 * fit in far less, and the kernel's page cache keeps the rest of the files anyway.
 */
const CACHE_KIB = 2000;

/**
 * One of Berth's SQLite files, opened as both stores use them: a write-ahead log checkpointed on
 * the worker thread, waits for another process's writer, and `synchronous` (and, for a new file,
 * `pageBytes`) as the store needs it; then `schema` is made. A full disk fails it with a
 * DiskFullError naming `what` the file is.
 */
export function openWalFile(path: string, options: { synchronous: 'FULL' | 'NORMAL'; pageBytes?: number; what: string; schema: string }): { db: Database.Database; checkpointer: WalCheckpointer | null } {
  return orDiskFull(path, options.what, () => {
    const db = new Database(path);
    try {
      // Taken by a file with no page yet only: before the log is set up.
      if (options.pageBytes) db.pragma(`page_size = ${options.pageBytes}`);
      db.pragma('journal_mode = WAL');
      // Several processes may share the file (a projections or reactors process beside the API).
      db.pragma('busy_timeout = 5000');
      db.pragma(`synchronous = ${options.synchronous}`);
      db.pragma(`cache_size = -${CACHE_KIB}`);
      db.exec(options.schema);
    } catch (error) {
      db.close();
      throw error;
    }
    return { db, checkpointer: checkpointInWorker(db, path) };
  });
}
