// The names Berth gives what it writes in an application's proxy file. The proxy reads every
// application's file from one folder and keeps the first definition of a name, so these names
// are Berth's alone: the file generator writes them, and a user's configuration may not define them.

export const serviceName = (appName: string) => `${appName}-service`;
export const authName = (appName: string) => `${appName}-auth`;
const redirectPrefix = (appName: string) => `${appName}-redirect-`;
// By the redirect's id, not its position: removing one redirect must not rename another's
// middleware, which a user's router may name.
export const redirectName = (appName: string, redirectId: string) => `${redirectPrefix(appName)}${redirectId}`;
/** The number of a redirect middleware named by position, as Berth named them before (`<appName>-redirect-2`); null for any other name. */
export const numberedRedirect = (appName: string, name: string): number | null => {
  const number = name.startsWith(redirectPrefix(appName)) ? name.slice(redirectPrefix(appName).length) : '';
  return /^[1-9]\d*$/.test(number) ? Number(number) : null;
};

type BerthPart = 'service' | 'basic-auth middleware' | 'redirect middlewares';

/** What Berth writes under `name` in `appName`'s file, or null when the name is free for a user. */
export function berthPartNamed(appName: string, name: string): BerthPart | null {
  if (name === serviceName(appName)) return 'service';
  if (name === authName(appName)) return 'basic-auth middleware';
  return name.startsWith(redirectPrefix(appName)) ? 'redirect middlewares' : null;
}

/** Whether a middleware name, as defined or as a router refers to it (`<name>@file`), is one Berth writes for `appName`. */
export const isBerthMiddlewareName = (appName: string, name: string): boolean => {
  const part = berthPartNamed(appName, name.replace(/@file$/, ''));
  return part !== null && part !== 'service';
};
