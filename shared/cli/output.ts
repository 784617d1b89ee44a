// Answers as people read them or, with --json, as scripts do. A table shows many records a line
// each, so a long cell is cut, and says so with `…`; one record is shown whole, since a value cut
// there (an env, a command) cannot be seen anywhere else.

type Row = Record<string, unknown>;
const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const scalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** The widest a table cell is shown, its `…` included. */
export const CELL_WIDTH = 48;
/** How far a value on lines of its own is indented under its key. */
const INDENT = '    ';

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** A table cell: on one line, cut at CELL_WIDTH characters (not UTF-16 units, which could split one) with a `…`. */
export function cell(value: unknown): string {
  const characters = [...text(value).replace(/\s+/g, ' ')];
  return characters.length <= CELL_WIDTH ? characters.join('') : `${characters.slice(0, CELL_WIDTH - 1).join('')}…`;
}

/** Columns worth a glance: ids and names first, long texts left out. */
function columnsOf(rows: readonly Row[]): string[] {
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row).filter((key) => scalar(row[key]))))];
  const rank = (key: string) => (/Id$|^id$/.test(key) ? 0 : ['name', 'appName', 'type', 'status', 'email'].includes(key) ? 1 : key === 'createdAt' ? 3 : 2);
  return keys.sort((a, b) => rank(a) - rank(b)).slice(0, 7);
}

export function table(rows: readonly Row[], columns = columnsOf(rows)): string {
  if (rows.length === 0) return '(none)';
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row[column]).length)));
  const line = (values: string[]) => values.map((value, i) => value.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(columns), line(widths.map((width) => '-'.repeat(width))), ...rows.map((row) => line(columns.map((column) => cell(row[column]))))].join('\n');
}

const indented = (block: string): string => block.split('\n').map((line) => (line ? `${INDENT}${line}` : line)).join('\n');

/** A list in a record: a table of its records, or its items a line each; whole either way but for the table's cells. */
function listBlock(items: readonly unknown[]): string {
  if (items.length === 0) return '(none)';
  if (items.every(isRow)) return table(items);
  return items.map((item) => (scalar(item) ? text(item) : JSON.stringify(item))).join('\n');
}

/** A value of a record: one that fits a line stays beside its key; any other goes on indented lines under it. */
function fieldValue(value: unknown): { inline: string } | { block: string } {
  if (scalar(value) || value === undefined) {
    const whole = text(value);
    return whole.includes('\n') ? { block: whole.replace(/\r\n?/g, '\n') } : { inline: whole };
  }
  if (Array.isArray(value)) return value.length === 0 ? { inline: '(none)' } : { block: listBlock(value) };
  return { block: JSON.stringify(value, null, 2) };
}

/** One record, every value whole. */
export function record(answer: Row): string {
  const width = Math.max(...Object.keys(answer).map((key) => key.length));
  return Object.entries(answer).map(([key, value]) => {
    const shown = fieldValue(value);
    return 'inline' in shown ? `${key.padEnd(width)}  ${shown.inline}`.trimEnd() : `${key}\n${indented(shown.block)}`;
  }).join('\n');
}

export function render(answer: unknown, json: boolean): string {
  if (json) return JSON.stringify(answer, null, 2);
  if (Array.isArray(answer)) return listBlock(answer);
  if (!isRow(answer)) return text(answer);
  return record(answer);
}
