// One reading of an env text (`KEY=value` a line), for applications, compose services and
// databases alike, as docker reads an env file: `export ` before a key is dropped; a value in
// single quotes is kept as written; in double quotes `\"` is a quote, `\\` a backslash and `\n` a
// newline, and any other backslash stays as written (`"\d+"` is `\d+`), as a shell keeps it; an
// unquoted value ends before a ` #` comment; blank lines and `#` lines are skipped. A fault names
// its line and key, never the value: a line may hold a secret.
import { badRequest } from '../errors.ts';

/** A line of an env text: its key and its raw value. */
export const ENV_LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;

const ESCAPED: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', n: '\n' };

/** The value a raw value stands for, or null when its quote is not closed where the line ends. */
export function envValue(raw: string): string | null {
  const value = raw.trim();
  const quote = value[0];
  if (quote !== '"' && quote !== "'") return value.replace(/\s+#.*$/, '');
  const closed = quote === '"' ? doubleQuoted(value) : singleQuoted(value);
  if (closed.end === -1 || value.slice(closed.end + 1).trim().replace(/^#.*$/, '') !== '') return null;
  return closed.inner;
}

/** A single-quoted value: its text as written, and where its closing quote is (-1: none). */
function singleQuoted(value: string): { inner: string; end: number } {
  const end = value.indexOf("'", 1);
  return { inner: value.slice(1, end), end };
}

/** A double-quoted value read once, left to right, so an escaped quote does not end it: its text and where its closing quote is (-1: none). */
function doubleQuoted(value: string): { inner: string; end: number } {
  let inner = '';
  for (let i = 1; i < value.length; i++) {
    const char = value[i]!;
    if (char === '"') return { inner, end: i };
    const escaped = char === '\\' ? ESCAPED[value[i + 1] ?? ''] : undefined;
    if (escaped === undefined) {
      inner += char;
    } else {
      inner += escaped;
      i++;
    }
  }
  return { inner, end: -1 };
}

/** Whether a line carries nothing (blank, or a comment). */
export const isBlankEnvLine = (line: string) => line.trim() === '' || line.trim().startsWith('#');

/** An env text's entries in order, or the fault of its first line that is not one. */
export type EnvReading = { entries: Array<[key: string, value: string]> } | { fault: string };

/** Reads a whole env text; null or empty is no entries. */
export function readEnvText(text: string | null | undefined): EnvReading {
  const entries: Array<[string, string]> = [];
  const lines = (text ?? '').split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (isBlankEnvLine(line)) continue;
    const match = ENV_LINE.exec(line.trim());
    if (!match) return { fault: `env line ${index + 1} is not KEY=value (a key is letters, digits and _ . -, not starting with a digit)` };
    const key = match[1]!;
    const value = envValue(match[2]!);
    if (value === null) return { fault: `env line ${index + 1} (${key}): the quoted value is not closed where the line ends` };
    entries.push([key, value]);
  }
  return { entries };
}

/** BAD_REQUEST naming `env` and its first line the deployer could not read: refused on save, not at deploy. */
export function mustBeEnvText(text: string): void {
  const reading = readEnvText(text);
  if ('fault' in reading) throw badRequest('env', reading.fault);
}
