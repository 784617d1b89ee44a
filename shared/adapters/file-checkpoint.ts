// A checkpoint in a file of the data folder: for the embedded mode, where every role that reads
// it runs on this machine. The position is written over the old one in place, at a fixed width,
// so the write covers the last value whole and a crash leaves the old value or the new one. (It
// was written aside and renamed into place: the rename, a journal operation for the filesystem,
// took 4.6 % of the request thread under the commands load, the relay saving once per batch.)
import { closeSync, constants, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { Checkpoint } from '../ports/checkpoint.ts';

/** Digits enough for any position. */
const WIDTH = 20;
/** Made if missing, never truncated: a crash between truncating and writing would leave no position at all. */
const IN_PLACE = constants.O_WRONLY | constants.O_CREAT;

export const fileCheckpoint = (file: string): Checkpoint => ({
  async read() {
    return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) || 0 : 0;
  },
  async save(position) {
    const fd = openSync(file, IN_PLACE);
    try {
      writeSync(fd, String(position).padStart(WIDTH, '0'), 0);
    } finally {
      closeSync(fd);
    }
  },
});
