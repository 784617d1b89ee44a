import { randomBytes } from 'node:crypto';

const ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

/** A 21-character URL-safe random id (126 bits), as ids are everywhere in Berth. */
export function newId(size = 21): string {
  const bytes = randomBytes(size);
  let id = '';
  for (let i = 0; i < size; i++) id += ALPHABET[bytes[i]! & 63];
  return id;
}

export const randomHex = (characters: number): string =>
  randomBytes(Math.ceil(characters / 2)).toString('hex').slice(0, characters);
