// Redirect middlewares are named by redirect id (`<app>-redirect-<redirectId>`). A configuration
// naming one no redirect of the application has (a former numbered name such as `<app>-redirect-2`,
// or a removed redirect's) would make the proxy disable the router that uses it, so it is refused
// when saved, naming the names the application's redirects have now.
import { badRequest } from '../../errors.ts';
import { berthPartNamed, redirectName } from './proxy-names.ts';
import { readConfig, referencesIn } from './proxy-reach.ts';

export function mustNameOnlyExistingRedirects(text: string, appName: string, redirectIds: readonly string[]): void {
  const names = new Set(redirectIds.map((id) => redirectName(appName, id)));
  for (const references of referencesIn(readConfig(text)).values()) {
    for (const { kind, name, user } of references) {
      const bare = name.replace(/@file$/, '');
      if (kind !== 'middleware' || berthPartNamed(appName, bare) !== 'redirect middlewares' || names.has(bare)) continue;
      const now = names.size > 0 ? `its redirects' middlewares are ${[...names].join(', ')}` : 'it has no redirect';
      throw badRequest('proxyConfig', `${user} uses the middleware ${name}, which no redirect of this application has `
        + `(Berth names each by its redirect's id, <appName>-redirect-<redirectId>); ${now}`);
    }
  }
}
