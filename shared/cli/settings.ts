// Where the CLI keeps the server it talks to and the token it signed in with: a JSON file only
// its owner may read (mode 0600), at $BERTH_CONFIG or ~/.config/berth/config.json.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Settings {
  readonly url: string;
  readonly token: string | null;
}

const DEFAULT_URL = 'http://localhost:3000';

export const settingsPath = (): string => process.env.BERTH_CONFIG || join(homedir(), '.config', 'berth', 'config.json');

export function loadSettings(): Settings {
  const path = settingsPath();
  const saved = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Partial<Settings>) : {};
  return {
    url: (process.env.BERTH_URL || saved.url || DEFAULT_URL).replace(/\/+$/, ''),
    token: process.env.BERTH_TOKEN || saved.token || null,
  };
}

export function saveSettings(settings: Settings): string {
  const path = settingsPath();
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  // An existing file keeps its mode on write: set it.
  chmodSync(path, 0o600);
  return path;
}
