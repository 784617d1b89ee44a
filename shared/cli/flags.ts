// Command-line flags typed by an operation's input schema: `--name x`, `--replicas 3`,
// `--enabled` / `--no-enabled`, `--description null`, JSON for lists and objects. Camel case as in
// the contract or kebab case (`--project-id`) both name a field.
import type { TObject, TSchema } from '@sinclair/typebox';

export class UsageError extends Error {}

export interface Parsed {
  readonly positional: string[];
  readonly flags: Map<string, string | true>;
}

/** Splits argv into positional words and `--flag [value]` pairs (`--flag=value` too). */
export function parseArgs(argv: readonly string[], booleans: ReadonlySet<string> = new Set()): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('--')) { positional.push(word); continue; }
    const [name, inline] = word.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (inline !== undefined) flags.set(name, inline);
    else if (booleans.has(camel(name.replace(/^no-/, ''))) || argv[i + 1] === undefined || argv[i + 1]!.startsWith('--')) flags.set(name, true);
    else flags.set(name, argv[++i]!);
  }
  return { positional, flags };
}

export const camel = (name: string): string => name.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
export const kebab = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

const typesOf = (schema: TSchema): string[] =>
  schema.anyOf ? (schema.anyOf as TSchema[]).flatMap(typesOf) : schema.const !== undefined ? [typeof schema.const] : [String(schema.type ?? 'string')];

export const booleanFields = (input: TObject): Set<string> =>
  new Set(Object.entries(input.properties).filter(([, schema]) => typesOf(schema as TSchema).includes('boolean')).map(([name]) => name));

function valueOf(field: string, schema: TSchema, raw: string | true): unknown {
  const types = typesOf(schema);
  if (raw === 'null' && types.includes('null')) return null;
  if (types.includes('boolean')) {
    if (raw === true || raw === 'true') return true;
    if (raw === 'false') return false;
    throw new UsageError(`--${field} is true or false`);
  }
  if (raw === true) throw new UsageError(`--${field} needs a value`);
  if (types.includes('number') || types.includes('integer')) {
    const value = Number(raw);
    if (raw.trim() === '' || Number.isNaN(value)) throw new UsageError(`--${field} is a number, not "${raw}"`);
    return value;
  }
  if (types.includes('array') || types.includes('object')) {
    try { return JSON.parse(raw); } catch { throw new UsageError(`--${field} is JSON (${types.join(' or ')})`); }
  }
  return raw;
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
    values[field] = negated ? false : valueOf(flag, schema, raw);
  }
  return values;
}
