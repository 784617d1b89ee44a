import { randomInt } from 'node:crypto';

// Letters and digits only: a generated password goes into connection URLs and shell
// environments, where punctuation needs escaping. 32 of 62 symbols is about 190 bits.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A strong random password for a service whose owner left it empty. */
export function randomPassword(length = 32): string {
  let password = '';
  for (let i = 0; i < length; i++) password += ALPHABET[randomInt(ALPHABET.length)];
  return password;
}
