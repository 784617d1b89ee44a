// What `berth <group> --help` and `berth <group> <operation> --help` print: read from the
// contract's input schemas, so the help cannot drift from what the flags accept, and from its
// table of summaries, so it says what each operation does as the API reference does.
import type { TSchema } from '@sinclair/typebox';
import type { Operation } from '../contract/operation.ts';
import { wholeNumberBoundsOf } from '../contract/schema.ts';
import { leadOf, summaryOf } from '../contract/summaries.ts';
import { choicesOf, kebab, switchOf, typesOf, variantsOf } from './flags.ts';

/** A number's bounds; a maximum at the largest safe integer is no real bound, so it is left out. */
function rangeText(minimum: number | undefined, maximum: number | undefined): string {
  if (minimum === undefined) return '';
  return maximum === undefined || maximum >= Number.MAX_SAFE_INTEGER ? ` from ${minimum}` : ` ${minimum}-${maximum}`;
}

/** What a string's format asks, in words; a format's own name is the contract's, never shown. */
const FORMAT_TEXT: Readonly<Record<string, string>> = { 'date-time': 'an instant, as 2026-01-31T12:00:00Z', email: 'an email address' };

/** One non-null alternative of a field, as a person types it. */
function variantText(variant: TSchema): string {
  if (variant.const !== undefined) return String(variant.const);
  const type = String(variant.type ?? 'string');
  if (type === 'array' || type === 'object') return `JSON ${type}`;
  if (type === 'integer' || type === 'number') return `${type}${rangeText(variant.minimum as number | undefined, variant.maximum as number | undefined)}`;
  const format = variant.format === undefined ? undefined : String(variant.format);
  const bounds = format === undefined ? null : wholeNumberBoundsOf(format);
  if (bounds) return `whole number${rangeText(bounds.minimum, bounds.maximum)}`;
  if (variant.minLength) return `${type} (at least ${variant.minLength} character${variant.minLength === 1 ? '' : 's'})`;
  return format !== undefined && FORMAT_TEXT[format] ? `${type} (${FORMAT_TEXT[format]})` : type;
}

/** The schema and every union inside it, outermost first. */
const nodesOf = (schema: TSchema): TSchema[] => [schema, ...((schema.anyOf ?? []) as TSchema[]).flatMap(nodesOf)];

/** The field's description, on the field or on the alternative that carries it. */
const descriptionOf = (schema: TSchema): string | undefined =>
  nodesOf(schema).map((node) => node.description as string | undefined).find(Boolean);

/** A field's type: a switch, a choice, or its alternatives; `or null` where null clears it. */
export function typeText(flag: string, schema: TSchema): string {
  const nullable = typesOf(schema).includes('null');
  const values = variantsOf(schema).filter((variant) => variant.type !== 'null');
  const choice = values.length > 1 && values.every((variant) => variant.const !== undefined);
  const base = switchOf(schema) ? `true or false (--${flag} alone: true, --no-${flag}: false)`
    : choice ? `one of ${choicesOf(schema).join(', ')}`
    : [...new Set(values.map(variantText))].join(' or ');
  const extras = [schema.default !== undefined && `default ${String(schema.default)}`, descriptionOf(schema)].filter(Boolean);
  return `${base}${nullable ? ', or null' : ''}${extras.length > 0 ? `; ${extras.join('; ')}` : ''}`;
}

const commandOf = (operation: Operation) => `berth ${operation.group} ${kebab(operation.procedure)}`;

/** How wide help text is wrapped: a terminal's 80 columns, and a little more. */
const WIDTH = 100;

/** `text` as lines of at most WIDTH characters (a longer word keeps its own line), each after `indent`. */
function wrapped(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return line === '' ? lines : [...lines, indent + line];
}

/** What the operation does, as a terminal shows it: its summary without the `code` marks. */
const summaryText = (operation: Operation, lead = false): string => {
  const summary = summaryOf(operation.name) ?? '';
  return (lead ? leadOf(summary) : summary).replaceAll('`', '');
};

/** Every operation of a group: a line each with its flags, and under it the lead of what it does. */
export function usageOfGroup(operations: readonly Operation[]): string {
  return operations.flatMap((operation) => [
    `  ${commandOf(operation)} ${Object.keys(operation.input.properties).map((field) => `--${kebab(field)}`).join(' ')}`.trimEnd(),
    ...wrapped(summaryText(operation, true), '      '),
  ]).join('\n');
}

/** One operation's flags, the required ones first, each with its type. */
export function usageOfOperation(operation: Operation): string {
  const required = new Set(operation.input.required ?? []);
  const fields = Object.entries(operation.input.properties as Record<string, TSchema>)
    .sort(([a], [b]) => Number(required.has(b)) - Number(required.has(a)));
  const rows: Array<[string, string, string]> = [
    ...fields.map(([field, schema]): [string, string, string] => [`--${kebab(field)}`, required.has(field) ? 'required' : 'optional', typeText(kebab(field), schema)]),
    ['--json', 'optional', 'print the answer as JSON'],
  ];
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) => `  ${row[0].padEnd(widths[0]!)}  ${row[1].padEnd(widths[1]!)}  ${row[2]}`);
  return [`${commandOf(operation)}  (${operation.method} /api/${operation.name})`, ...wrapped(summaryText(operation), ''), '', ...lines].join('\n');
}
