// Command-line flags typed by an operation's input schema: `--name x`, `--replicas 3`,
// `--enabled` / `--no-enabled`, `--description null`, JSON for lists and objects. Camel case as in
// the contract or kebab case (`--project-id`) both name a field.
import type { TObject, TSchema } from '@sinclair/typebox';

export class UsageError extends Error {}

export interface Parsed {
  readonly positional: string[];
  readonly flags: Map<string, string | true>;
}

export const camel = (name: string): string => name.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
export const kebab = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The words a switch takes when they follow it (`--auto-deploy null`); any other word is positional. */
const SWITCH_WORDS = new Set(['true', 'false', 'null']);

/** Whether `--name` takes the word after it as its value: a switch only a true|false|null, `--no-x` none. */
function takesValue(name: string, next: string | undefined, switches: ReadonlySet<string>): boolean {
  if (next === undefined || next.startsWith('--')) return false;
  if (switches.has(camel(name))) return SWITCH_WORDS.has(next);
  return !switches.has(camel(name.replace(/^no-/, '')));
}

/** Splits argv into positional words and `--flag [value]` pairs (`--flag=value` too). */
export function parseArgs(argv: readonly string[], switches: ReadonlySet<string> = new Set()): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('--')) { positional.push(word); continue; }
    const [name, inline] = word.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (inline !== undefined) flags.set(name, inline);
    else if (takesValue(name, argv[i + 1], switches)) flags.set(name, argv[++i]!);
    else flags.set(name, true);
  }
  return { positional, flags };
}

/** The alternatives of a union (nested ones too), or the schema itself. */
const variantsOf = (schema: TSchema): TSchema[] => (schema.anyOf ? (schema.anyOf as TSchema[]).flatMap(variantsOf) : [schema]);
const typesOf = (schema: TSchema): string[] =>
  variantsOf(schema).map((variant) => (variant.const !== undefined ? typeof variant.const : String(variant.type ?? 'string')));
const choicesOf = (schema: TSchema): unknown[] =>
  variantsOf(schema).filter((variant) => variant.const !== undefined).map((variant) => variant.const as unknown);

/** What turns a switch on and off: a boolean, or a query's 'true' | 'false' choice (`--follow`); null when the field is no switch. */
function switchOf(schema: TSchema): { on: unknown; off: unknown } | null {
  if (typesOf(schema).includes('boolean')) return { on: true, off: false };
  const choices = choicesOf(schema);
  return choices.length === 2 && choices.includes('true') && choices.includes('false') ? { on: 'true', off: 'false' } : null;
}

export const switchFields = (input: TObject): Set<string> =>
  new Set(Object.entries(input.properties).filter(([, schema]) => switchOf(schema as TSchema)).map(([name]) => name));

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
    throw new UsageError(`--${field} is true or false${types.includes('null') ? ' (or null)' : ''}`);
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

/** The operation's input from the flags; an unknown flag is a usage error naming it. */
export function inputFrom(input: TObject, flags: ReadonlyMap<string, string | true>, ignore: ReadonlySet<string>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [flag, raw] of flags) {
    if (ignore.has(flag)) continue;
    const negated = flag.startsWith('no-') && !(camel(flag) in input.properties);
    const field = camel(negated ? flag.slice(3) : flag);
    const schema = input.properties[field] as TSchema | undefined;
    if (!schema) throw new UsageError(`unknown flag --${flag}; this command takes ${Object.keys(input.properties).map((name) => `--${kebab(name)}`).join(' ') || 'no flags'}`);
    values[field] = negated ? offValue(flag, schema, raw) : valueOf(flag, schema, raw);
  }
  return values;
}
