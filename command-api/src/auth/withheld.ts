// Fields an answer shows only to the callers allowed to manage them (behaviour.md, Records: "other
// secrets are returned only to callers allowed to manage that resource"). Any account may read the
// registries, but only an admin manages them; an application's proxy configuration is for those
// who may read proxy files (application.readProxyConfig), whoever else may see the application.
import type { Actor } from '../context.ts';

interface Withheld {
  readonly fields: readonly string[];
  readonly shownTo: (actor: Actor) => boolean;
}

const isAdmin = (actor: Actor) => actor.rol === 'admin';

const WITHHELD: Readonly<Record<string, Withheld>> = {
  registry: { fields: ['password'], shownTo: isAdmin },
  application: { fields: ['proxyConfig'], shownTo: (actor) => isAdmin(actor) || actor.permissions.canAccessToProxyFiles },
};

/** The fields of an `aggregate` record that `actor` may not see; none for Berth's own calls (no actor). */
export function withheldFrom(actor: Actor | null, aggregate: string): readonly string[] {
  const rule = WITHHELD[aggregate];
  return !actor || !rule || rule.shownTo(actor) ? [] : rule.fields;
}

/** Which of those fields `actor` sees, as a key: callers with the same key get the same answers. */
export const withheldKey = (actor: Actor | null): string =>
  Object.keys(WITHHELD).map((aggregate) => (withheldFrom(actor, aggregate).length === 0 ? '1' : '0')).join('');
