// htpasswd entries with bcrypt, the one hash both the proxy's basicAuth and the registry accept.
import bcrypt from 'bcryptjs';
import { breaksALine } from '../one-line.ts';

/**
 * Why `username` cannot be a basic-auth name, or null: the scheme sends `name:password`, and an
 * htpasswd file is `name:hash` lines, so a colon or a control character makes a user who can never
 * sign in; a line or paragraph separator (U+0085, U+2028, U+2029), written raw into the proxy's
 * YAML file, reads as a line break there.
 */
export const basicAuthNameProblem = (username: string): string | null =>
  (username.includes(':') || breaksALine(username)
    ? 'must not contain a colon or control characters, which basic authentication cannot carry, nor line/paragraph separators, which the proxy file would read as line breaks'
    : null);

/** bcrypt hashes only a password's first 72 bytes: the rest would be silently ignored. */
export const BCRYPT_MAX_BYTES = 72;

/** Why `password` cannot be a basic-auth password, or null: counted in UTF-8 bytes, as bcrypt reads it. */
export const basicAuthPasswordProblem = (password: string): string | null =>
  (Buffer.byteLength(password, 'utf8') > BCRYPT_MAX_BYTES
    ? `must be at most ${BCRYPT_MAX_BYTES} bytes in UTF-8 (a letter such as é takes two): the proxy's bcrypt hash ignores the rest, so any password sharing the first ${BCRYPT_MAX_BYTES} bytes would be let in`
    : null);

export const htpasswdEntry = (username: string, password: string) => `${username}:${bcrypt.hashSync(password, 10)}`;

export const htpasswdMatches = (entry: string, password: string) => bcrypt.compareSync(password, entry.slice(entry.indexOf(':') + 1));
