// Where the CLI keeps the server it talks to and the token it signed in with: a JSON file only
// its owner may read (mode 0600), at $BERTH_CONFIG or ~/.config/berth/config.json.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { messageOf } from '../errors.ts';

export interface Settings {
  readonly url: string;
  readonly token: string | null;
}

/** The settings cannot be used: a file that is no settings (named), or an address without a scheme. */
export class BadSettings extends Error {}

const DEFAULT_URL = 'http://localhost:3000';

export const settingsPath = (): string => process.env.BERTH_CONFIG || join(homedir(), '.config', 'berth', 'config.json');

/** Why `raw` is no address of a Berth (`needs http:// or https:// (got …)`), or null: the one check for --url, BERTH_URL and the saved url. */
export function urlProblem(raw: string): string | null {
  return /^https?:\/\/[^/]/i.test(raw) && URL.canParse(raw) ? null : `needs http:// or https:// (got ${raw})`;
}

/** An address without the trailing slashes that would double the one before `api/`. */
export const trimmed = (url: string) => url.replace(/\/+$/, '');

/** What the file holds: an object whose url and token, if there, are strings. */
function savedIn(path: string): Partial<Settings> {
  const fix = 'run berth login --url … to write it again';
  let saved: unknown;
  try {
    saved = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new BadSettings(`cannot read the settings in ${path}: ${messageOf(error)}; ${fix}`);
  }
  const { url, token } = (saved ?? {}) as Record<string, unknown>;
  const wellFormed = typeof saved === 'object' && saved !== null && !Array.isArray(saved)
    && ['string', 'undefined'].includes(typeof url) && (token === null || ['string', 'undefined'].includes(typeof token));
  if (!wellFormed) throw new BadSettings(`the settings in ${path} are not {"url": …, "token": …}; ${fix}`);
  return saved as Partial<Settings>;
}

export function loadSettings(): Settings {
  const path = settingsPath();
  const saved = existsSync(path) ? savedIn(path) : {};
  const [name, url] = process.env.BERTH_URL ? ['BERTH_URL', process.env.BERTH_URL] : [`the url saved in ${path}`, saved.url || DEFAULT_URL];
  const problem = urlProblem(url);
  if (problem) throw new BadSettings(`${name} ${problem}`);
  return { url: trimmed(url), token: process.env.BERTH_TOKEN || saved.token || null };
}

export function saveSettings(settings: Settings): string {
  const path = settingsPath();
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
    // An existing file keeps its mode on write: set it.
    chmodSync(path, 0o600);
  } catch (error) {
    throw new BadSettings(`cannot write the settings to ${path}: ${messageOf(error)}`);
  }
  return path;
}
