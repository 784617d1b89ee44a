// htpasswd entries with bcrypt, the one hash both the proxy's basicAuth and the registry accept.
import bcrypt from 'bcryptjs';

export const htpasswdEntry = (username: string, password: string) => `${username}:${bcrypt.hashSync(password, 10)}`;

export const htpasswdMatches = (entry: string, password: string) => bcrypt.compareSync(password, entry.slice(entry.indexOf(':') + 1));
