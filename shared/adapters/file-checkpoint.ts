// A checkpoint in a file of the data folder: for the embedded mode, where every role that reads
// it runs on this machine. Replaced in one rename, so a crash leaves the old value or the new one.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Checkpoint } from '../ports/checkpoint.ts';

export const fileCheckpoint = (file: string): Checkpoint => ({
  async read() {
    return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) || 0 : 0;
  },
  async save(position) {
    writeFileSync(`${file}.next`, String(position));
    renameSync(`${file}.next`, file);
  },
});
