import { randomBytes } from 'node:crypto';

const ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';
// Random bytes are drawn in blocks: one call per id costs more than the rest of a command.
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

function take(size: number): Buffer {
  if (offset + size > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + size);
  offset += size;
  return bytes;
}

/** A 21-character URL-safe random id (126 bits), as ids are everywhere in Berth. */
export function newId(size = 21): string {
  const bytes = take(size);
  let id = '';
  for (let i = 0; i < size; i++) id += ALPHABET[bytes[i]! & 63];
  return id;
}

export const randomHex = (characters: number): string =>
  randomBytes(Math.ceil(characters / 2)).toString('hex').slice(0, characters);
