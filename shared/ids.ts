import { randomBytes } from 'node:crypto';

const ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';
// Random bytes are drawn in blocks: one call per id costs more than the rest of a command.
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

const CODES = Buffer.from(ALPHABET, 'latin1');
/** Where an id's characters are written before they become one string (no string per character); no id is longer than the pool. */
const spelled = Buffer.alloc(POOL_SIZE);

/** Writes `size` random characters into `spelled`, from index `at`. */
function spellRandom(at: number, size: number): void {
  if (offset + size > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  for (let i = 0; i < size; i++) spelled[at + i] = CODES[pool[offset + i]! & 63]!;
  offset += size;
}

/** A 21-character URL-safe random id (126 bits), as ids are everywhere in Berth. */
export function newId(size = 21): string {
  spellRandom(0, size);
  return spelled.toString('latin1', 0, size);
}

/** The same 64 URL-safe characters in byte order, so that text comparison is numeric comparison. */
const SORTED = Buffer.from('-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz', 'latin1');
const TIME_CHARACTERS = 8; // 48 bits of milliseconds: until the year 10889

/**
 * A 21-character id that starts with the time it was made (78 random bits follow), so ids made
 * later sort later. The log indexes event ids: random ones dirty a random page of that index on
 * every append, time-ordered ones fill its last page.
 */
export function newTimeOrderedId(now = Date.now()): string {
  for (let i = TIME_CHARACTERS - 1, time = now; i >= 0; i--, time = Math.floor(time / 64)) spelled[i] = SORTED[time % 64]!;
  spellRandom(TIME_CHARACTERS, 21 - TIME_CHARACTERS);
  return spelled.toString('latin1', 0, 21);
}

export const randomHex = (characters: number): string =>
  randomBytes(Math.ceil(characters / 2)).toString('hex').slice(0, characters);
