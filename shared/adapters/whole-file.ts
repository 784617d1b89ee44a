// A file replaced whole: written to a temporary file beside it, then renamed over it, so a reader
// (the proxy's file watcher) sees the old file or the new one, never half of one.
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';

/**
 * Replaces `path` with `text`. `mode` is given to the temporary file as it is created (`wx`: a
 * new file, which a mode applies to), so the file is never, even for a moment, more open than that.
 */
export async function replaceFileWhole(path: string, text: string, mode?: number): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text, { mode, flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    // A temporary file left behind would keep its folder from being removed.
    await rm(temporary, { force: true });
    throw error;
  }
}
