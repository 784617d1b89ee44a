// htpasswd entries with bcrypt, the one hash both the proxy's basicAuth and the registry accept.
import bcrypt from 'bcryptjs';

/**
 * Why `username` cannot be a basic-auth name, or null: the scheme sends `name:password`, and an
 * htpasswd file is `name:hash` lines, so a colon or a control character makes a user who can never sign in.
 */
export const basicAuthNameProblem = (username: string): string | null =>
  (/[:\u0000-\u001f\u007f]/.test(username) ? 'must not contain a colon or control characters, which basic authentication cannot carry' : null);

export const htpasswdEntry = (username: string, password: string) => `${username}:${bcrypt.hashSync(password, 10)}`;

export const htpasswdMatches = (entry: string, password: string) => bcrypt.compareSync(password, entry.slice(entry.indexOf(':') + 1));
