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

export const htpasswdEntry = (username: string, password: string) => `${username}:${bcrypt.hashSync(password, 10)}`;

export const htpasswdMatches = (entry: string, password: string) => bcrypt.compareSync(password, entry.slice(entry.indexOf(':') + 1));
