// Answers as people read them or, with --json, as scripts do. A table shows many records a line
// each, so a long cell is cut, and says so with `…`; one record is shown whole, since a value cut
// there (an env, a command) cannot be seen anywhere else. Both show control characters escaped
// (terminal-text.ts); --json is exact JSON.
import { padded, visible, visibleLines, widthOf } from './terminal-text.ts';

type Row = Record<string, unknown>;
const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const scalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** The widest a table cell is shown, its `…` included. */
export const CELL_WIDTH = 48;
/** How far a value on lines of its own is indented under its key. */
const INDENT = '    ';

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** A table cell: on one line, escaped, cut at CELL_WIDTH characters (not UTF-16 units, which could split one) with a `…`. */
export function cell(value: unknown): string {
  const characters = [...visible(text(value).replace(/\s+/g, ' '))];
  return characters.length <= CELL_WIDTH ? characters.join('') : `${characters.slice(0, CELL_WIDTH - 1).join('')}…`;
}

/** How many columns a table shows. */
const MAX_COLUMNS = 7;
const isId = (key: string) => /Id$|^id$/.test(key);
const NAMES = ['name', 'appName', 'title', 'email'];
const INFORMATIVE = ['status', 'kind', 'type', 'reason'];
const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

/**
 * Columns worth a glance: none empty in every row; the record's own id (its first), its name,
 * what state it is in and when it was made before any other value, and other ids last.
 */
function columnsOf(rows: readonly Row[]): string[] {
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row).filter((key) => scalar(row[key]))))]
    .filter((key) => rows.some((row) => !isEmpty(row[key])));
  const ownId = keys.find(isId);
  const rank = (key: string) => (key === ownId ? 0 : NAMES.includes(key) ? 1 : INFORMATIVE.includes(key) ? 2
    : key === 'createdAt' ? 3 : isId(key) ? 5 : 4);
  return keys.sort((a, b) => rank(a) - rank(b)).slice(0, MAX_COLUMNS);
}

export function table(rows: readonly Row[], columns = columnsOf(rows)): string {
  if (rows.length === 0) return '(none)';
  const headers = columns.map(visible);
  const widths = headers.map((header, i) => Math.max(widthOf(header), ...rows.map((row) => widthOf(cell(row[columns[i]!])))));
  const line = (values: string[]) => values.map((value, i) => padded(value, widths[i]!)).join('  ').trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...rows.map((row) => line(columns.map((column) => cell(row[column]))))].join('\n');
}

const indented = (block: string): string => block.split('\n').map((line) => (line ? `${INDENT}${line}` : line)).join('\n');

/** A list in a record: a table of its records, or its items a line each; whole either way but for the table's cells. */
function listBlock(items: readonly unknown[]): string {
  if (items.length === 0) return '(none)';
  if (items.every(isRow)) return table(items);
  return items.map((item) => visible(scalar(item) ? text(item) : JSON.stringify(item))).join('\n');
}

/** A value of a record: one that fits a line stays beside its key; any other goes on indented lines under it. */
function fieldValue(value: unknown): { inline: string } | { block: string } {
  if (scalar(value) || value === undefined) {
    const whole = text(value);
    return whole.includes('\n') ? { block: visibleLines(whole.replace(/\r\n?/g, '\n')) } : { inline: visible(whole) };
  }
  if (Array.isArray(value)) return value.length === 0 ? { inline: '(none)' } : { block: listBlock(value) };
  // JSON escapes C0 controls but not DEL or C1.
  return { block: visibleLines(JSON.stringify(value, null, 2)) };
}

/** One record, every value whole. */
export function record(answer: Row): string {
  const width = Math.max(...Object.keys(answer).map((key) => widthOf(visible(key))));
  return Object.entries(answer).map(([raw, value]) => {
    const key = visible(raw);
    const shown = fieldValue(value);
    return 'inline' in shown ? `${padded(key, width)}  ${shown.inline}`.trimEnd() : `${key}\n${indented(shown.block)}`;
  }).join('\n');
}

export function render(answer: unknown, json: boolean): string {
  if (json) return JSON.stringify(answer, null, 2);
  if (Array.isArray(answer)) return listBlock(answer);
  if (!isRow(answer)) return visibleLines(text(answer));
  return record(answer);
}
