// Where a registry answers, as image references name it: a host with an optional port and path
// (`registry.example.com`, `localhost:5000`, `ghcr.io/team`), or the same as an http(s) URL.
// Empty names the runtime's default registry, as an image reference without a host does.
import { badRequest } from '../../errors.ts';

const SCHEME = /^https?:\/\//i;
export const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** Throws BAD_REQUEST naming `registryUrl` unless `url` is empty, a host[:port][/path] or an http(s) URL. */
export function mustBeRegistryUrl(url: string): void {
  const reason = url === '' ? null : problemOf(url);
  if (reason) throw badRequest('registryUrl', reason);
}

/** One path component of an image name, as the engine's reference grammar has it. */
export const COMPONENT = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
/** The engine's bound on an image name (host and path, without the tag). */
export const NAME_MAX = 255;
/** What Berth appends to the registry's path and prefix: `/<appName>`, an appName being a service name (at most 63). */
const APP_PART_MAX = 1 + 63;

const pathOfUrl = (url: string) => registryPathOf(url).replace(/^[^/]*\/?/, '');
const trimmedPrefix = (prefix: string | null | undefined) => (prefix ?? '').replace(/^\/+|\/+$/g, '');

/** Why `path` (components separated by `/`) cannot be part of an image name; null when it can. */
function pathProblem(path: string): string | null {
  const bad = path.split('/').find((component) => !COMPONENT.test(component));
  if (bad === undefined) return null;
  return `holds "${bad}", which cannot be part of an image name: each part between slashes is lowercase letters and digits, joined by ".", "_", "__" or "-"`;
}

export interface ImageNameProblem {
  readonly field: 'registryUrl' | 'imagePrefix';
  readonly reason: string;
}

/**
 * Why a registry's URL path and image prefix cannot start the image names Berth pushes
 * (`<host>[/<path>][/<prefix>]/<appName>`); null when they can. Assumes the host was checked (mustBeRegistryUrl).
 */
export function imageNameProblem(registryUrl: string, imagePrefix: string | null | undefined): ImageNameProblem | null {
  const path = pathOfUrl(registryUrl);
  const prefix = trimmedPrefix(imagePrefix);
  const inPath = path === '' ? null : pathProblem(path);
  if (inPath) return { field: 'registryUrl', reason: `has a path that ${inPath}` };
  const inPrefix = prefix === '' ? null : pathProblem(prefix);
  if (inPrefix) return { field: 'imagePrefix', reason: inPrefix };
  const start = [registryPathOf(registryUrl), prefix].filter(Boolean).join('/');
  if (start.length + APP_PART_MAX > NAME_MAX) {
    return { field: prefix === '' ? 'registryUrl' : 'imagePrefix', reason: `makes image names start with ${start.length} characters: with "/<appName>" they must fit in ${NAME_MAX}, so at most ${NAME_MAX - APP_PART_MAX}` };
  }
  return null;
}

/** Throws BAD_REQUEST naming the field unless the URL and the prefix can start an image name (imageNameProblem). */
export function mustFormImageNames(registryUrl: string, imagePrefix: string | null | undefined): void {
  mustBeRegistryUrl(registryUrl);
  const problem = imageNameProblem(registryUrl, imagePrefix);
  if (problem) throw badRequest(problem.field, problem.reason);
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
