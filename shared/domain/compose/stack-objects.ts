// A stack's secrets and configs: the file's top-level definitions as the objects the stack creates
// (or external ones it only refers to), and a service's references to them as the engine mounts
// them. Content comes from a file of the repository, a variable of the service's env, or (a
// config) the text itself.
import { createHash } from 'node:crypto';
import { badRequest } from '../../errors.ts';
import type { StackConfigReference, StackFileTarget, StackObjectSpec, StackSecretReference } from './stack-spec.ts';
import { asMap, isUnjudged, labelMap, list, type Map } from './values.ts';

export type ObjectKind = 'secret' | 'config';
const SECTION = { secret: 'secrets', config: 'configs' } as const;
const NAME_LIMIT = 64;

/** Reads a file the compose file names, by its path relative to the file's folder: its bytes, or null when there is none. */
export type ReadComposeFile = (path: string) => Uint8Array | null;

export interface ObjectsContext {
  readonly namespace: string;
  readonly labels: Record<string, string>;
  /** Null when not opened (judged on save): a value read from it is the deploy's to find. */
  readonly env: Readonly<Record<string, string>> | null;
  readonly read: ReadComposeFile | null;
}

export interface DeclaredObjects {
  /** The name in the file → the object's name on the engine. */
  readonly names: ReadonlyMap<string, string>;
  /** Those the stack creates (not the external ones). */
  readonly created: StackObjectSpec[];
}

/** The bytes of `path`, a file of the compose file's folder; BAD_REQUEST naming `where` when there is none. */
export function fileContent(read: ReadComposeFile | null, path: string, where: string): Uint8Array {
  const content = read?.(path) ?? null;
  if (content === null) throw badRequest('composeFile', `${where}: there is no file "${path}" beside the compose file`);
  return content;
}

function contentOf(kind: ObjectKind, entry: Map, where: string, context: ObjectsContext): Uint8Array {
  if (typeof entry.file === 'string') return fileContent(context.read, entry.file, where);
  if (typeof entry.environment === 'string') {
    if (context.env === null) return new Uint8Array();
    const value = context.env[entry.environment];
    if (value === undefined) throw badRequest('composeFile', `${where}: the variable "${entry.environment}" is not in the service's env`);
    return Buffer.from(value);
  }
  if (kind === 'config' && typeof entry.content === 'string') return Buffer.from(entry.content);
  throw badRequest('composeFile', `${where}: needs "file", "environment"${kind === 'config' ? ', "content"' : ''} or "external: true"`);
}

export function declaredObjects(kind: ObjectKind, section: unknown, context: ObjectsContext): DeclaredObjects {
  const names = new Map<string, string>();
  const created: StackObjectSpec[] = [];
  for (const [key, raw] of Object.entries(asMap(section))) {
    const entry = asMap(raw);
    const where = `${SECTION[kind]}.${key}`;
    if (entry.external === true) {
      names.set(key, typeof entry.name === 'string' ? entry.name : key);
      continue;
    }
    const content = contentOf(kind, entry, where, context);
    const digest = createHash('sha256').update(content).digest('hex').slice(0, 12);
    // The engine takes names of at most 64 characters: a long base is cut, the digest kept whole.
    const base = typeof entry.name === 'string' ? entry.name : `${context.namespace}_${key}`;
    const name = `${base.slice(0, NAME_LIMIT - digest.length - 1)}_${digest}`;
    names.set(key, name);
    created.push({ Name: name, Labels: { ...labelMap(entry.labels), ...context.labels }, Data: Buffer.from(content).toString('base64') });
  }
  return { names, created };
}

/** A file mode: a number as the file gives it (`0440` was read as octal), or octal digits written as a string. */
function modeOf(value: unknown, where: string): number {
  if (value === undefined || isUnjudged(value)) return 0o444;
  const mode = typeof value === 'number' ? value : /^(0o?)?[0-7]{1,4}$/.test(String(value)) ? parseInt(String(value).replace(/^0o/, ''), 8) : NaN;
  if (!Number.isInteger(mode) || mode < 0 || mode > 0o7777) throw badRequest('composeFile', `${where}: mode "${String(value)}" is not a file mode (octal, as 0440)`);
  return mode;
}

function target(kind: ObjectKind, entry: unknown, where: string, names: ReadonlyMap<string, string>): { source: string; file: StackFileTarget } {
  const long = typeof entry === 'string' ? { source: entry } : asMap(entry);
  const source = String(long.source ?? '');
  if (!names.has(source) && !isUnjudged(source)) throw badRequest('composeFile', `${where}: ${kind} "${source}" is not declared under ${SECTION[kind]}`);
  // A secret's bare name lands under /run/secrets; a config without a target lands at /<name>.
  const name = typeof long.target === 'string' ? long.target : kind === 'secret' ? source : `/${source}`;
  return {
    source,
    file: { Name: name, UID: String(long.uid ?? '0'), GID: String(long.gid ?? '0'), Mode: modeOf(long.mode, where) },
  };
}

export function secretReferences(entries: unknown, where: string, names: ReadonlyMap<string, string>): StackSecretReference[] {
  return list(entries).map((entry) => {
    const { source, file } = target('secret', entry, `${where}.secrets`, names);
    return { File: file, SecretName: names.get(source) ?? source };
  });
}

export function configReferences(entries: unknown, where: string, names: ReadonlyMap<string, string>): StackConfigReference[] {
  return list(entries).map((entry) => {
    const { source, file } = target('config', entry, `${where}.configs`, names);
    return { File: file, ConfigName: names.get(source) ?? source };
  });
}
