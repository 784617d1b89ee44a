// Where a destination's bucket answers, as Berth's S3 client takes it: an http(s) URL, or a host
// with an optional port (and path), which the client reaches over https, as S3 consoles show
// endpoints. Anything else is refused when written, not at the first backup's upload.
import { badRequest } from '../../errors.ts';

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The URL the client calls for `endpoint`, or null when the client could not call it. */
export function endpointUrlOf(endpoint: string): string | null {
  let url: URL;
  try {
    url = new URL(SCHEME.test(endpoint) ? endpoint : `https://${endpoint}`);
  } catch {
    return null;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url.toString() : null;
}

/** BAD_REQUEST naming `bucket` when it is empty: every request names it, and the client refuses one without. */
export function mustNameBucket(bucket: string | undefined): void {
  if (bucket === '') throw badRequest('bucket', 'must not be empty: it names the bucket the backups go in');
}

/** BAD_REQUEST naming `endpoint` unless the S3 client can call it. */
export function mustBeEndpoint(endpoint: string): void {
  if (endpointUrlOf(endpoint) === null) {
    throw badRequest('endpoint', 'must be an http or https URL, or a host name with an optional port (reached over https), such as https://s3.example.com or s3.example.com:9000');
  }
}
