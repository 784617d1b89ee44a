// A git URL may carry its credentials as its userinfo (`https://token@host/…`,
// `https://user:password@host/…`): the only way to give them for a private https repository.

const USERINFO = /([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi;

/** Whether `url` carries userinfo: such a URL is kept sealed, as every other secret is. */
export const carriesCredentials = (url: string): boolean => url.search(USERINFO) !== -1;

/** `text` with the userinfo of every URL in it left out: how logs show it. */
export const redactUrl = (text: string): string => text.replace(USERINFO, '$1***@');

/** A URL scheme followed by `://`, as git tells a URL from a path (its `is_url`). */
const SCHEME_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Whether git reads `url` from this host's files rather than over the network: a `file:` URL (any
 * case, any number of slashes, or the `file::` helper form), or a path, which is what git takes
 * for anything that is neither a URL nor an ssh address (`[user@]host:path`, a `:` with no `/`
 * before it). Such a source clones whatever Berth's own user can read there, another tenant's
 * checkout included: only an admin may save one, and only for one does a clone allow git's file
 * transport (reactors' source-git.ts).
 */
export function isLocalGitUrl(url: string): boolean {
  if (url === '') return false;
  if (/^file:/i.test(url)) return true;
  if (SCHEME_URL.test(url)) return false;
  const colon = url.indexOf(':');
  return colon === -1 || url.slice(0, colon).includes('/');
}

/** git's network transports: a clone may use only these, so a redirect or a submodule cannot reach `file:` (or `ext::`, a command). */
const NETWORK_PROTOCOLS = ['https', 'http', 'ssh', 'git'];

/** The value of git's `GIT_ALLOW_PROTOCOL` for a clone of `url`: the network ones, and `file` only for a source on this host. */
export const allowedGitProtocols = (url: string): string =>
  [...NETWORK_PROTOCOLS, ...(isLocalGitUrl(url) ? ['file'] : [])].join(':');
