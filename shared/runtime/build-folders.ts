// Where builds live. Each build is a folder named by its content: a process keeps running the files
// it started from (it may load a lazily imported chunk hours later, at its first backup), so a new
// build never overwrites them, and processes that start together from the same sources share one
// complete folder instead of writing the same files under each other. A folder goes once no process
// that ran it is alive; without that, every change of the sources left a build behind.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface BuiltFile {
  /** Its path in the folder. */
  readonly name: string;
  readonly contents: Uint8Array;
}

const USERS = '.users';
const LOCK = '.lock';
/** A lock older than this was left by a process that died holding it: settling takes milliseconds. */
const STALE_LOCK_MS = 30_000;
const LOCK_WAIT_MS = 60_000;
const BUILD_FOLDER = /^[0-9a-f]{16}$/;

/** The folder's name: the same files make the same name, whoever builds them. */
function contentName(files: readonly BuiltFile[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => a.name.localeCompare(b.name))) hash.update(`${file.name}\0${file.contents.length}\0`).update(file.contents);
  return hash.digest('hex').slice(0, 16);
}

/**
 * Puts `files` in their folder of `buildDir` (written aside, then renamed into place), records
 * `usedBy` as a process running it, and removes the folders no living process runs; answers the folder.
 */
export async function settle(buildDir: string, files: readonly BuiltFile[], usedBy: number): Promise<string> {
  const folder = join(buildDir, contentName(files));
  mkdirSync(buildDir, { recursive: true });
  await locked(buildDir, () => {
    if (!existsSync(folder)) {
      const aside = join(buildDir, `.writing-${randomBytes(6).toString('hex')}`);
      mkdirSync(join(aside, USERS), { recursive: true });
      for (const file of files) {
        mkdirSync(dirname(join(aside, file.name)), { recursive: true });
        writeFileSync(join(aside, file.name), file.contents);
      }
      renameSync(aside, folder);
    }
    writeFileSync(join(folder, USERS, String(usedBy)), '');
    removeUnused(buildDir, folder);
  });
  return folder;
}

function removeUnused(buildDir: string, current: string): void {
  for (const name of readdirSync(buildDir)) {
    const path = join(buildDir, name);
    if (name === LOCK) continue;
    // Settling is done under the lock, so anything else is a folder no process is writing: an old
    // build, one a killed build left half-written, or a file of the flat layout builds once had.
    const inUse = BUILD_FOLDER.test(name) && keepLiveUsers(path) > 0;
    if (!inUse && path !== current) rmSync(path, { recursive: true, force: true });
  }
}

/** Forgets the folder's users that have ended (each start adds one); answers how many remain. */
function keepLiveUsers(folder: string): number {
  const users = join(folder, USERS);
  if (!existsSync(users)) return 0;
  let live = 0;
  for (const name of readdirSync(users)) {
    if (alive(Number(name))) live++;
    else rmSync(join(users, name), { force: true });
  }
  return live;
}

/** Whether a process with this id runs (one that reused a dead user's id keeps its folder a while longer). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `work` holding `buildDir`'s lock: a folder only one process can make. */
async function locked(buildDir: string, work: () => void): Promise<void> {
  const lock = join(buildDir, LOCK);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (lockAge(lock) > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${lock} has been held for over ${LOCK_WAIT_MS / 1000} s; remove it if no build is running`);
      else await sleep(10);
    }
  }
  try {
    work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function lockAge(lock: string): number {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return 0; // released meanwhile: try again
  }
}
