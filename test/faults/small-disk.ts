// A small filesystem of its own (tmpfs, as root) that a test can fill up and empty again.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  readonly root: string;
  /** Writes a filler file until the disk refuses (ENOSPC). */
  fill(): void;
  /** Removes the filler: the disk has room again. */
  free(): void;
  unmount(): void;
}

export function mountSmallDisk(sizeMb = 8): SmallDisk {
  const root = mkdtempSync(join(tmpdir(), 'berth-test-diskfull-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', root]);
  const filler = join(root, 'filler');
  return {
    root,
    fill() {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024, 1);
      try {
        // Smaller writes at the end take the last blocks too.
        for (let size = chunk.length; size >= 512;) {
          try {
            writeSync(fd, chunk, 0, size);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
            size /= 2;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', root]);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A folder on the disk. */
export const folderOn = (disk: SmallDisk, name: string) => {
  const dir = join(disk.root, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};
