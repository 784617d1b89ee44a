// One reading of an env text (`KEY=value` a line), for applications, compose services and
// databases alike, as docker reads an env file: `export ` before a key is dropped; a value in
// single or double quotes loses them (double: `\n` and `\"` escapes); an unquoted value ends
// before a ` #` comment; blank lines and `#` lines are skipped.

/** A line of an env text: its key and its raw value. */
export const ENV_LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;

/** The value a raw value stands for, or null when its quote is not closed where the line ends. */
export function envValue(raw: string): string | null {
  const value = raw.trim();
  const quote = value[0];
  if (quote !== '"' && quote !== "'") return value.replace(/\s+#.*$/, '');
  const end = value.indexOf(quote, 1);
  if (end === -1 || value.slice(end + 1).trim().replace(/^#.*$/, '') !== '') return null;
  const inner = value.slice(1, end);
  return quote === '"' ? inner.replace(/\\n/g, '\n').replace(/\\"/g, '"') : inner;
}

/** Whether a line carries nothing (blank, or a comment). */
export const isBlankEnvLine = (line: string) => line.trim() === '' || line.trim().startsWith('#');
