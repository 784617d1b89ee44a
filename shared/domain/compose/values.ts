// The value syntaxes of a compose file: variable interpolation, durations, byte sizes, and
// commands written as one string. Pure helpers for the stack spec builder.
import { badRequest } from '../../errors.ts';
import { ENV_LINE, envValue, isBlankEnvLine } from '../env-text.ts';

export type Map = Record<string, unknown>;
export const isMap = (value: unknown): value is Map => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A mapping of the parsed file, or an empty one for anything else. */
export const asMap = (value: unknown): Map => (isMap(value) ? value : {});
/** A sequence of the parsed file, or an empty one for anything else. */
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** `KEY: value` or `[KEY=value]` as `KEY=value` lines (the form both `environment` and `labels` take). */
export const pairs = (value: unknown): string[] => (Array.isArray(value)
  ? value.map(String) : Object.entries(asMap(value)).map(([key, item]) => `${key}=${item === null ? '' : String(item)}`));
export const labelMap = (value: unknown): Record<string, string> =>
  Object.fromEntries(pairs(value).map((line) => [line.split('=')[0]!, line.slice(line.indexOf('=') + 1)]));

/**
 * `${NAME}`, `${NAME:-default}`, `${NAME-default}`, `${NAME:?message}`, `${NAME?message}`, `$NAME`,
 * and `$$` for a literal `$`. Any other `${` (unterminated, or not a name) is caught by the last
 * group, to be refused as the compose tools refuse it rather than passed on as written.
 */
const VARIABLE = /\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*)|(\{))/g;

/** `${NAME:?message}` (unset or empty) and `${NAME?message}` (unset) fail with the message, as docker does. */
function required(name: string, value: string | undefined, op: string, message: string): string {
  if (value === undefined || (op === ':?' && value === '')) {
    throw badRequest('composeFile', `needs a value for the required variable ${name}${message ? `: ${message}` : ''}`);
  }
  return value;
}

/**
 * What a string that interpolates a variable reads as when the file is judged without the env (on
 * save: stackSpec's `judging: 'save'`): every check lets it pass, and the deploy, which has the env, judges it.
 */
export const UNJUDGED = '\u0000unjudged';
export const isUnjudged = (value: unknown): boolean => value === UNJUDGED;

/** `text` with its variables from `env`; with no env (`null`), UNJUDGED when it has any. */
export function interpolate(text: string, env: Readonly<Record<string, string>> | null): string {
  let unknown = false;
  const result = text.replace(VARIABLE, (whole, braced?: string, op?: string, operand?: string, bare?: string, broken?: string) => {
    if (whole === '$$') return '$';
    if (broken !== undefined) throw badRequest('composeFile', `has an invalid interpolation format in "${text}": a "\${" that is not closed or does not name a variable (write "$$" for a literal "$")`);
    if (env === null) {
      unknown = true;
      return whole;
    }
    const name = (braced ?? bare)!;
    const value = env[name];
    if (op === ':-') return value ? value : operand ?? '';
    if (op === '-') return value ?? operand ?? '';
    if (op === ':?' || op === '?') return required(name, value, op, operand ?? '');
    return value ?? '';
  });
  return unknown ? UNJUDGED : result;
}

/** Interpolates every string of a parsed file (keys stay as written). */
export function interpolateAll(value: unknown, env: Readonly<Record<string, string>> | null): unknown {
  if (typeof value === 'string') return interpolate(value, env);
  if (Array.isArray(value)) return value.map((item) => interpolateAll(item, env));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateAll(item, env)]));
  return value;
}

/**
 * An env text as a map, each line read as an application's is (shared/domain/env-text.ts); a line
 * that is not `KEY=value` is passed over, and a value whose quote is not closed is kept as written.
 */
export function envMap(text: string | null | undefined): Record<string, string> {
  const map: Record<string, string> = {};
  for (const line of (text ?? '').split(/\r?\n/)) {
    const match = isBlankEnvLine(line) ? null : ENV_LINE.exec(line.trim());
    if (match) map[match[1]!] = envValue(match[2]!) ?? match[2]!.trim();
  }
  return map;
}

const UNITS: Record<string, number> = { ns: 1, us: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** `1m30s`, `500ms`, `10s` as nanoseconds (the engine's unit); a bare number is seconds. */
export function nanoseconds(value: unknown, field: string): number {
  if (typeof value === 'number') return value * 1e9;
  if (isUnjudged(value)) return 0;
  const text = String(value);
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ns|us|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) throw badRequest('composeFile', `${field}: "${text}" is not a duration`);
  return Math.round(parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * UNITS[unit!]!, 0));
}

/** `512M`, `1g`, `1024` as bytes. */
export function bytes(value: unknown, field: string): number {
  if (typeof value === 'number') return value;
  if (isUnjudged(value)) return 0;
  const match = /^(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?$/i.exec(String(value));
  if (!match) throw badRequest('composeFile', `${field}: "${String(value)}" is not a size`);
  const power = ' kmgt'.indexOf(match[2]!.toLowerCase() || ' ');
  return Math.round(Number(match[1]) * 1024 ** power);
}

/** A command given as one string, split as a POSIX shell splits words (quotes, backslashes). */
export function words(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : split(String(value)).words;
}

/** BAD_REQUEST naming `field` when a command written as one string leaves a quote open: a shell refuses it; `words` would run it to the end. */
export function mustCloseQuotes(field: string, text: string): void {
  if (split(text).open) throw badRequest(field, 'has a quote that is not closed: its last argument would run to the end of the line');
}

function split(text: string): { words: string[]; open: boolean } {
  const result: string[] = [];
  let current: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quote) {
      if (char === quote) quote = null;
      else if (char === '\\' && quote === '"' && i + 1 < text.length) current = (current ?? '') + (text[++i] ?? '');
      else current = (current ?? '') + char;
    } else if (char === '"' || char === "'") { quote = char; current ??= ''; }
    else if (char === '\\' && i + 1 < text.length) current = (current ?? '') + (text[++i] ?? '');
    else if (/\s/.test(char)) { if (current !== null) result.push(current); current = null; }
    else current = (current ?? '') + char;
  }
  if (current !== null) result.push(current);
  return { words: result, open: quote !== null };
}
