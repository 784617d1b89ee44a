// A git URL may carry its credentials as its userinfo (`https://token@host/…`,
// `https://user:password@host/…`): the only way to give them for a private https repository.

const USERINFO = /([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi;

/** Whether `url` carries userinfo: such a URL is kept sealed, as every other secret is. */
export const carriesCredentials = (url: string): boolean => url.search(USERINFO) !== -1;

/** `text` with the userinfo of every URL in it left out: how logs show it. */
export const redactUrl = (text: string): string => text.replace(USERINFO, '$1***@');
