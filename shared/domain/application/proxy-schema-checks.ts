// The few kinds of value the proxy's file provider decodes, as checks that answer the first fault
// as a sentence naming its path, or null. They follow its decoder: a scalar is read from its text
// (so `priority: "10"` is an integer), a null value counts as left out, and an empty mapping is
// refused where the proxy refuses it ("cannot be a standalone element").
export type Check = (node: unknown, path: string) => string | null;

export const isMap = (node: unknown): node is Record<string, unknown> => typeof node === 'object' && node !== null && !Array.isArray(node);
const isAbsent = (node: unknown) => node === undefined || node === null;
const isScalar = (node: unknown): node is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof node);

/** A check for a scalar whose text must match `valid`, with the sentence's ending. */
const scalar = (valid: (text: string) => boolean, mustBe: string): Check =>
  (node, path) => (isScalar(node) && valid(String(node)) ? null : `${path} must be ${mustBe}`);

/** Text that is one of `values`, as the proxy compares it (case and all). */
export const oneOf = (...values: readonly string[]) => scalar((value) => values.includes(value), `one of ${values.join(', ')}`);
export const text = scalar(() => true, 'text (a single value, not a list or a mapping)');
export const nonEmptyText = scalar((value) => value.trim() !== '', 'non-empty text');
export const integer = scalar((value) => /^[+-]?\d+$/.test(value), 'an integer');
// The values Go's strconv.ParseBool reads.
export const boolean = scalar((value) => ['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value), 'true or false');
// A number of seconds, or a Go duration such as 10s, 1m30s or 250ms.
export const duration = scalar((value) => /^[+-]?\d+$/.test(value) || /^[+-]?((\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/.test(value),
  'a duration such as 10s, 1m30s or 250ms (or a number of seconds)');
/** Free-form settings the proxy hands on undecoded (a plugin's configuration). */
export const anything: Check = () => null;

export function listOf(item: Check): Check {
  return (node, path) => {
    if (!Array.isArray(node)) return `${path} must be a list`;
    for (const [index, entry] of node.entries()) {
      const fault = item(entry, `${path}[${index}]`);
      if (fault) return fault;
    }
    return null;
  };
}

const emptyFault = (path: string, what: string) => `${path} must not be an empty mapping: leave it out, or give it ${what}`;

/**
 * A mapping of names the user chooses (routers, headers) to entries checked by `entry`; a null
 * entry is left out, and so is an empty one where `emptyEntries` (the proxy takes `default: {}`
 * as TLS options with every default).
 */
export function namedEntries(entry: Check, what = 'entries', emptyEntries = false): Check {
  return (node, path) => {
    if (!isMap(node)) return `${path} must be a mapping of names to ${what}`;
    if (Object.keys(node).length === 0) return emptyFault(path, what);
    for (const [name, value] of Object.entries(node)) {
      const left = isAbsent(value) || (emptyEntries && isMap(value) && Object.keys(value).length === 0);
      const fault = left ? null : entry(value, `${path}.${name}`);
      if (fault) return fault;
    }
    return null;
  };
}

export interface FieldsOptions {
  /** Keys that must be present (not null). */
  readonly required?: readonly string[];
  /** The proxy accepts `{}`, and a plain `true`, for this mapping (a switch such as a router's tls). */
  readonly orSwitch?: boolean;
  /** Exactly one of the keys must be present: the mapping is one of several kinds. */
  readonly oneKind?: boolean;
}

/** The sentence for a key the proxy does not know at `keyPath`, the key's whole path. */
export function unknownKeyFault(keyPath: string, key: string, known: readonly string[]): string {
  const sameButCase = known.find((name) => name.toLowerCase() === key.toLowerCase());
  if (sameButCase) return `${keyPath} must be spelt ${sameButCase}`;
  const distanceTo = (name: string) => editDistance(name.toLowerCase(), key.toLowerCase());
  const near = known.filter((name) => distanceTo(name) <= 2).sort((one, other) => distanceTo(one) - distanceTo(other))[0];
  return `${keyPath} is not a known key here; ${near ? `did you mean ${near}?` : `expected one of ${known.join(', ')}`}`;
}

/** How many single-letter edits turn one word into the other (a typo is one or two). */
function editDistance(from: string, to: string): number {
  let previous = Array.from({ length: to.length + 1 }, (_, index) => index);
  for (const [row, letter] of [...from].entries()) {
    const current = [row + 1];
    for (const [column, other] of [...to].entries()) {
      current.push(Math.min(previous[column + 1]! + 1, current[column]! + 1, previous[column]! + (letter === other ? 0 : 1)));
    }
    previous = current;
  }
  return previous[to.length]!;
}

/** A mapping of known keys, each checked by its own check; any other key is refused. */
export function fields(shape: Readonly<Record<string, Check>>, options: FieldsOptions = {}): Check {
  const known = Object.keys(shape);
  const listed = known.join(', ');
  return (node, path) => {
    if (options.orSwitch && (node === true || node === false)) return null;
    if (!isMap(node)) return `${path} must be a mapping of ${options.oneKind ? 'one of ' : ''}${listed}`;
    const keys = Object.keys(node);
    const unknown = keys.find((key) => !Object.hasOwn(shape, key));
    if (unknown !== undefined) return unknownKeyFault(`${path}.${unknown}`, unknown, known);
    const missing = options.required?.find((key) => isAbsent(node[key]));
    if (missing) return `${path}.${missing} is missing`;
    if (keys.length === 0 && !options.orSwitch) return emptyFault(path, options.oneKind ? `one of ${listed}` : `some of ${listed}`);
    const present = keys.filter((key) => !isAbsent(node[key]));
    if (options.oneKind && present.length !== 1) return `${path} must hold exactly one of ${listed}`;
    for (const key of present) {
      const fault = shape[key]!(node[key], `${path}.${key}`);
      if (fault) return fault;
    }
    return null;
  };
}
