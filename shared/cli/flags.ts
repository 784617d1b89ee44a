// Command-line flags typed by an operation's input schema: `--name x`, `--replicas 3`,
// `--enabled` / `--no-enabled`, `--description null`, JSON for lists and objects. Camel case as in
// the contract or kebab case (`--project-id`, `--custom-git-ssh-key`) both name a field: dashes and
// case aside, as operation names are matched.
import type { TObject, TSchema } from '@sinclair/typebox';

export class UsageError extends Error {}

export interface Parsed {
  readonly positional: string[];
  readonly flags: Map<string, string | true>;
}

/** A name as typed with dashes and case left out: `custom-git-ssh-key`, `customGitSSHKey` and `custom-git-s-s-h-key` are one. */
export const squash = (name: string): string => name.toLowerCase().replace(/-/g, '');
/** A field's flag: an acronym one word (`customGitSSHKey` → `custom-git-ssh-key`, `is2FAEnabled` → `is-2fa-enabled`). */
export const kebab = (name: string): string =>
  name.replace(/([a-z])([A-Z0-9])/g, '$1-$2').replace(/([A-Z0-9])([A-Z][a-z])/g, '$1-$2').toLowerCase();

/** The field of `input` a flag names, or undefined. */
const fieldNamed = (input: TObject, flag: string): string | undefined =>
  Object.keys(input.properties).find((field) => squash(field) === squash(flag));

/**
 * Splits argv into positional words and `--flag [value]` pairs (`--flag=value` too). A flag takes
 * the word after it unless that is a flag itself: a switch too (`--enabled false`), so that a word
 * a switch cannot take (`--enabled maybe`) is refused as its value, naming it, rather than read as
 * a stray word. A flag given twice is refused: keeping one of the two would be a guess (lists are
 * given as one JSON value, never by repeating a flag).
 */
export function parseArgs(argv: readonly string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('--')) { positional.push(word); continue; }
    const [name, inline] = word.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (flags.has(name)) throw new UsageError(`--${name} given twice`);
    const next = argv[i + 1];
    if (inline !== undefined) flags.set(name, inline);
    else if (next !== undefined && !next.startsWith('--')) flags.set(name, argv[++i]!);
    else flags.set(name, true);
  }
  return { positional, flags };
}

/** A switch of the CLI's own (`--json`, `--all`): bare or `true` is on, `false` off, any other word refused. */
export function switchOn(flags: ReadonlyMap<string, string | true>, name: string): boolean {
  const raw = flags.get(name);
  if (raw === undefined || raw === 'false') return false;
  if (raw === true || raw === 'true') return true;
  throw new UsageError(`--${name} must be true or false (got ${raw})`);
}

/** The alternatives of a union (nested ones too), or the schema itself. */
export const variantsOf = (schema: TSchema): TSchema[] => (schema.anyOf ? (schema.anyOf as TSchema[]).flatMap(variantsOf) : [schema]);
export const typesOf = (schema: TSchema): string[] =>
  variantsOf(schema).map((variant) => (variant.const !== undefined ? typeof variant.const : String(variant.type ?? 'string')));
export const choicesOf = (schema: TSchema): unknown[] =>
  variantsOf(schema).filter((variant) => variant.const !== undefined).map((variant) => variant.const as unknown);

/** What turns a switch on and off: a boolean, or a query's 'true' | 'false' choice (`--follow`); null when the field is no switch. */
export function switchOf(schema: TSchema): { on: unknown; off: unknown } | null {
  if (typesOf(schema).includes('boolean')) return { on: true, off: false };
  const choices = choicesOf(schema);
  return choices.length === 2 && choices.includes('true') && choices.includes('false') ? { on: 'true', off: 'false' } : null;
}

/** A plain decimal: no hex, exponent, blanks or Infinity, which `Number` would take. */
const DECIMAL = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;
const INTEGER = /^-?\d+$/;

function numberOf(field: string, types: readonly string[], raw: string): number {
  const integer = !types.includes('number');
  if (!(integer ? INTEGER : DECIMAL).test(raw)) throw new UsageError(`--${field} is a number${integer ? ' (an integer)' : ''}, not "${raw}"`);
  return Number(raw);
}

function valueOf(field: string, schema: TSchema, raw: string | true): unknown {
  const types = typesOf(schema);
  if (raw === 'null' && types.includes('null')) return null;
  const onOff = switchOf(schema);
  if (onOff) {
    if (raw === true || raw === 'true') return onOff.on;
    if (raw === 'false') return onOff.off;
    throw new UsageError(`--${field} must be true or false (got ${raw})${types.includes('null') ? '; null clears it' : ''}`);
  }
  if (raw === true) throw new UsageError(`--${field} needs a value`);
  if (types.includes('number') || types.includes('integer')) return numberOf(field, types, raw);
  if (types.includes('array') || types.includes('object')) {
    try { return JSON.parse(raw); } catch { throw new UsageError(`--${field} is JSON (${types.join(' or ')})`); }
  }
  return raw;
}

/** `--no-x`: the off value of switch `x`; refused for any other field. */
function offValue(flag: string, schema: TSchema, raw: string | true): unknown {
  const onOff = switchOf(schema);
  if (!onOff) throw new UsageError(`--${flag}: only a true/false field is turned off with --no-; give --${flag.slice(3)} a value`);
  if (raw !== true) throw new UsageError(`--${flag} takes no value`);
  return onOff.off;
}

/**
 * The operation's input from the flags; an unknown flag is a usage error naming it, and so is a
 * field given twice under two spellings (`--project-id` and `--projectId`, `--x` and `--no-x`).
 */
export function inputFrom(input: TObject, flags: ReadonlyMap<string, string | true>, ignore: ReadonlySet<string>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [flag, raw] of flags) {
    if (ignore.has(flag)) continue;
    const negated = flag.startsWith('no-') && fieldNamed(input, flag) === undefined;
    const field = fieldNamed(input, negated ? flag.slice(3) : flag);
    const schema = field === undefined ? undefined : input.properties[field] as TSchema;
    if (field === undefined || !schema) throw new UsageError(`unknown flag --${flag}; this command takes ${Object.keys(input.properties).map((name) => `--${kebab(name)}`).join(' ') || 'no flags'}`);
    if (field in values) throw new UsageError(`--${kebab(field)} given twice`);
    values[field] = negated ? offValue(flag, schema, raw) : valueOf(flag, schema, raw);
  }
  return values;
}
