import { existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

/**
 * The content of `file`, written first with `make()` if it is not there. Processes that share the
 * data folder (a swarm's API replicas on one volume) may start at the same moment: the file is
 * written aside and linked into place, which only one can do, so every one of them reads the same
 * complete content, never another's half-written file or its own overwritten one.
 */
export function madeOnce(file: string, make: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const aside = `${file}.${randomBytes(6).toString('hex')}`;
  writeFileSync(aside, make(), { mode: 0o600 });
  try {
    linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(aside, { force: true });
  }
  return readFileSync(file, 'utf8').trim();
}
