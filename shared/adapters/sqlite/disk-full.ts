import { statfsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { DiskFullError } from '../../ports/disk-full.ts';

/**
 * Room below which SQLite's bare "disk I/O error" is taken for a full disk: it says no more when
 * the shared-memory file of a write-ahead log cannot grow (SQLITE_IOERR_SHMSIZE, at open).
 */
const NEARLY_FULL_BYTES = 1024 * 1024;

/** Whether SQLite's (or the system's) error `code`, met writing `file`, means its disk has no room left. */
export function meansNoRoom(code: unknown, file: string): boolean {
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return true;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_IOERR')) return false;
  try {
    const { bavail, bsize } = statfsSync(dirname(file));
    return bavail * bsize < NEARLY_FULL_BYTES;
  } catch {
    return false;
  }
}

const ranOutOfRoom = (error: unknown, file: string) =>
  error instanceof Error && meansNoRoom((error as { code?: unknown }).code, file);

/** `error` as a DiskFullError naming `what` (the file's role) when it means the disk is full; as it is otherwise. */
export const asDiskFull = (error: unknown, file: string, what: string): unknown =>
  (ranOutOfRoom(error, file) ? new DiskFullError(`${what} (${basename(file)})`, error) : error);

/** Runs `write` on `file`, a full disk failing it with a DiskFullError. */
export function orDiskFull<T>(file: string, what: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw asDiskFull(error, file, what);
  }
}
