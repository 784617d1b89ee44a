// Berth once named redirect middlewares by position (`<app>-redirect-2`), so removing a redirect
// renamed the ones after it; they are named by redirect id now. A user's stored configuration may
// still name a numbered one: it is re-pointed to the redirect that number named when Berth last
// wrote the file. Which that is, the file itself tells: a numbered file by the middleware's content,
// a later one by a comment line keeping the numbers the configuration still uses (the content of a
// redirect can change afterwards, its id cannot).
import { parse } from 'yaml';
import type { Redirect } from '@berth/shared/domain/redirect/redirect';
import { numberedRedirect } from '@berth/shared/domain/application/proxy-names';
import { currentName } from './names.ts';

type RedirectParts = Pick<Redirect, 'redirectId' | 'regex' | 'replacement' | 'permanent'>;

/** The numbers a file's former redirect names had, each to the id of the redirect it named. */
export type Numbered = ReadonlyMap<number, string>;
/** The numbers a rewrite re-pointed, kept for the next one. */
export type Used = Map<number, string>;

const KEPT = /^# Redirects once numbered: (.*)$/m;
const mapOf = (value: unknown): Record<string, unknown> =>
  (value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {});

/** The numbers a previous file re-pointed (its comment line), and those it defined by content. */
export function numberedIn(previous: string | null, appName: string, formerAppNames: readonly string[],
  redirects: readonly RedirectParts[]): Numbered {
  const numbered = new Map<number, string>();
  if (!previous) return numbered;
  for (const pair of KEPT.exec(previous)?.[1]?.split(' ') ?? []) {
    const [number, id] = pair.split('=');
    if (id && redirects.some((redirect) => redirect.redirectId === id)) numbered.set(Number(number), id);
  }
  let file: unknown;
  try { file = parse(previous); } catch { return numbered; }
  for (const [name, entry] of Object.entries(mapOf(mapOf(mapOf(file).http).middlewares))) {
    const number = numberedRedirect(appName, currentName(name, appName, formerAppNames));
    const regex = mapOf(mapOf(entry).redirectRegex);
    // Two redirects of one content behave alike: either is the one the number named.
    const same = redirects.find((redirect) => redirect.regex === regex.regex && redirect.replacement === regex.replacement
      && redirect.permanent === regex.permanent);
    if (number !== null && same && !numbered.has(number)) numbered.set(number, same.redirectId);
  }
  return numbered;
}

/** The middleware a router names, with a numbered redirect name swapped for the redirect's id-named one. */
export function renumbered(name: string, appName: string, numbered: Numbered, used: Used): string {
  const suffix = name.endsWith('@file') ? '@file' : '';
  const number = numberedRedirect(appName, name.replace(/@file$/, ''));
  const id = number === null ? undefined : numbered.get(number);
  if (number === null || id === undefined) return name;
  used.set(number, id);
  return `${appName}-redirect-${id}${suffix}`;
}

/** The comment line that keeps the numbers still in use for the next rewrite; empty when none is. */
export const numberedLine = (used: ReadonlyMap<number, string>): string => (used.size === 0 ? ''
  : `# Redirects once numbered: ${[...used].sort(([one], [other]) => one - other).map(([number, id]) => `${number}=${id}`).join(' ')}\n`);
