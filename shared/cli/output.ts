// Answers as people read them (tables of the scalar fields) or, with --json, as scripts do.

type Row = Record<string, unknown>;
const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const scalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value).replace(/\s+/g, ' ').slice(0, 48));

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

export function render(answer: unknown, json: boolean): string {
  if (json) return JSON.stringify(answer, null, 2);
  if (Array.isArray(answer)) return answer.every(isRow) ? table(answer) : answer.map(cell).join('\n');
  if (!isRow(answer)) return String(answer ?? '');
  const width = Math.max(...Object.keys(answer).map((key) => key.length));
  return Object.entries(answer).map(([key, value]) => `${key.padEnd(width)}  ${
    scalar(value) ? cell(value) : Array.isArray(value) ? `(${value.length})` : '{…}'}`).join('\n');
}
