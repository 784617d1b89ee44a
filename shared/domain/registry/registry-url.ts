// Where a registry answers, as image references name it: a host with an optional port and path
// (`registry.example.com`, `localhost:5000`, `ghcr.io/team`), or the same as an http(s) URL.
// Empty names the runtime's default registry, as an image reference without a host does.
import { badRequest } from '../../errors.ts';

const SCHEME = /^https?:\/\//i;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** Throws BAD_REQUEST naming `registryUrl` unless `url` is empty, a host[:port][/path] or an http(s) URL. */
export function mustBeRegistryUrl(url: string): void {
  const reason = url === '' ? null : problemOf(url);
  if (reason) throw badRequest('registryUrl', reason);
}

function problemOf(url: string): string | null {
  if (/\s/.test(url)) return 'must not contain spaces';
  const hasScheme = SCHEME.test(url);
  if (!hasScheme && url.includes('://')) return 'must be an http or https URL, or a host name without a scheme';
  let parsed: URL;
  try {
    parsed = new URL(hasScheme ? url : `https://${url}`);
  } catch {
    return 'must be a host name with an optional port, or an http(s) URL';
  }
  const host = parsed.hostname;
  if (!host) return 'must name a host';
  // WHATWG URLs accept hosts no resolver would (`-a-`, `a..b`): a DNS name is dot-separated labels.
  if (!host.startsWith('[') && !host.split('.').every((label) => LABEL.test(label))) return `names "${host}", which is not a host name`;
  if (parsed.username || parsed.password) return 'must not hold credentials: use username and password';
  if (parsed.search || parsed.hash || url.includes('?') || url.includes('#')) return 'must not have a query or fragment';
  return null;
}

/** host[:port] of a registry URL given with or without a scheme and path: where logins go. */
export const registryHostOf = (registryUrl: string) => registryUrl.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/, '');

/** The registry URL as image references start: host[:port][/path], without scheme or trailing slash. */
export const registryPathOf = (registryUrl: string) => registryUrl.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '');

/** Where the engine logs in when a registry URL or an image reference names no host. */
export const DEFAULT_REGISTRY = 'https://index.docker.io/v1/';
