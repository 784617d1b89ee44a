// One process per data folder for the singleton work on the embedded default (no NATS, hence no
// lease): two reactors on one log would run every deployment twice, two projection writers race.
// The lock is SQLite's own file lock on a small file of the data folder, held by a connection in
// exclusive locking mode: the OS drops it when the process dies, even by SIGKILL, and SQLite
// refuses a second connection of the same process too (tests start several Berths in one process).
import Database from 'better-sqlite3';
import { join } from 'node:path';

export const LOCK_FILE = 'berth.lock';

export interface FolderLock {
  release(): void;
}

/** Another process (or another Berth of this one) holds the data folder. */
export class FolderInUseError extends Error {}

/** The lock of one role's singleton work on the folder (with NATS the roles may run apart, each once). */
export const roleLockFile = (role: string) => `berth-${role}.lock`;

/**
 * Takes the data folder's lock, or with `role` that role's, or throws FolderInUseError at once (no
 * waiting: the holder may run for days).
 */
export function lockDataFolder(dataDir: string, role?: string): FolderLock {
  const db = new Database(join(dataDir, role ? roleLockFile(role) : LOCK_FILE), { timeout: 0 });
  try {
    holdExclusively(db);
  } catch (error) {
    db.close();
    if (!isBusy(error)) throw error;
    throw role ? roleInUse(dataDir, role) : inUse(dataDir);
  }
  // `db` stays referenced by the returned closure: a collected connection would close and let go of the lock.
  return { release: () => db.close() };
}

/** In exclusive locking mode the first write takes SQLite's exclusive lock and keeps it until the connection closes. */
function holdExclusively(db: Database.Database): void {
  db.pragma('locking_mode = EXCLUSIVE');
  db.exec('CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, since TEXT NOT NULL)');
  db.prepare('INSERT OR REPLACE INTO holder (id, pid, since) VALUES (1, ?, ?)').run(process.pid, new Date().toISOString());
}

const isBusy = (error: unknown): boolean =>
  error instanceof Database.SqliteError && (error.code === 'SQLITE_BUSY' || error.code === 'SQLITE_LOCKED');

const roleInUse = (dataDir: string, role: string) => new FolderInUseError(
  `the data folder ${dataDir} has its ${role} run by another Berth process already: each role runs once per data folder; stop that one first`);

const inUse = (dataDir: string) => new FolderInUseError(
  `the data folder ${dataDir} is in use by another Berth process (projections, relay or reactors): `
  + 'stop that one first, or run the roles as separate processes with BERTH_NATS_URL');
