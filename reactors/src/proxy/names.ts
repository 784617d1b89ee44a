// How a name Berth gave under an application's former appName maps to the one it has now.
import { berthPartNamed } from '@berth/shared/domain/application/proxy-names';

const PROVIDER = /@file$/;

/**
 * `name` with a former appName's prefix swapped for the current one, when it is a name Berth
 * gave under that former appName (`<old>-service`, `<old>-auth`, `<old>-redirect-N`, with or
 * without `@file`); any other name as it is. The routers a user wrote before a rename still
 * name the old ones: re-pointed, they keep reaching this application and get its middlewares.
 */
export function currentName(name: string, appName: string, formerAppNames: readonly string[]): string {
  const suffix = PROVIDER.test(name) ? '@file' : '';
  const bare = name.replace(PROVIDER, '');
  const former = formerAppNames.find((candidate) => berthPartNamed(candidate, bare) !== null);
  return former === undefined ? name : `${appName}${bare.slice(former.length)}${suffix}`;
}
