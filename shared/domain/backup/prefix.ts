// A backup's `prefix` is the folder of the bucket its objects go in: `<prefix>/<ISO timestamp>.<ext>.gz`.
// It must name one plain folder: odd ones (`/x`, `a//b`, `../x`, ` x`) make keys that S3 servers
// and consoles read differently, and could reach into another backup's folder.
import { badRequest } from '../../errors.ts';
import { breaksALine } from '../../one-line.ts';

/** The folder of `prefix`, with its one trailing slash: a trailing slash given or not is the same folder. */
export const backupFolder = (prefix: string): string => `${prefix.replace(/\/+$/, '')}/`;

/** An object's key is at most 1,024 bytes (S3): the folder leaves room for `<ISO timestamp>.<ext>.gz`. */
const MOST_BYTES = 960;

export function mustBePrefix(prefix: string, field = 'prefix'): void {
  if (Buffer.byteLength(prefix) > MOST_BYTES) {
    throw badRequest(field, `must be at most ${MOST_BYTES} bytes: an object's key, the prefix with a timestamp and extension after it, is at most 1024`);
  }
  // Invisible in consoles and listings, and some servers refuse them in keys.
  if (breaksALine(prefix)) throw badRequest(field, 'must not hold control characters or line separators');
  // An edge space is invisible wherever the folder is shown: ` x` looks like `x`.
  if (prefix.trim() !== prefix) throw badRequest(field, 'must not start or end with a space');
  if (prefix.startsWith('/')) throw badRequest(field, 'must not start with "/" (it is a folder of the bucket)');
  // One trailing slash says the same folder; more would be an empty folder name.
  const segments = prefix.replace(/\/$/, '').split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw badRequest(field, 'must be folder names separated by single "/", none of them "." or ".."');
  }
}
