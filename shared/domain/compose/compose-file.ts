// What Berth needs to know of a compose file's text: whether it can be saved, and its services.
// Pure functions over the text, so deciders may call them.
import { isAlias, isMap, isScalar, parseDocument, type Document, type Pair } from 'yaml';
import { yamlFault } from '../yaml-fault.ts';

/** A parsed file; `null` for the empty text a compose service starts with. */
export function parseComposeFile(text: string): Document | null {
  return text.trim() === '' ? null : parseDocument(text, { prettyErrors: false });
}

/** The node itself, or what an alias (`*name`) points at. */
export const deref = (document: Document, node: unknown): unknown =>
  isAlias(node) ? node.resolve(document) : node;

/** A mapping key as text (keys of a parsed file are scalar nodes). */
export const keyOf = (pair: Pair): string => String(isScalar(pair.key) ? pair.key.value : pair.key);

/** A service's name as the compose tools take it (their schema's pattern). */
const SERVICE_NAME = /^[a-zA-Z0-9._-]+$/;

/** Why `text` cannot be saved as a compose file, or `null` when it can (the empty text can). */
export function composeFileProblem(text: string): string | null {
  const document = parseComposeFile(text);
  if (document === null) return null;
  const [error] = document.errors;
  if (error) return yamlFault(error);
  if (!isMap(document.contents)) return 'must be a YAML mapping at the top level';
  const services = deref(document, document.contents.get('services', true));
  if (!isMap(services)) return 'must have a "services" mapping';
  if (services.items.length === 0) return 'has no services';
  const misnamed = services.items.map(keyOf).find((name) => !SERVICE_NAME.test(name));
  if (misnamed !== undefined) return `names a service ${JSON.stringify(misnamed)}: a service's name is letters, digits, ".", "_" or "-", at least one`;
  return null;
}

/** The names of the file's services, in file order; none for an empty or unreadable file. */
export function serviceNames(text: string): string[] {
  const document = parseComposeFile(text);
  if (document === null || document.errors.length > 0 || !isMap(document.contents)) return [];
  const services = deref(document, document.contents.get('services', true));
  return isMap(services) ? services.items.map(keyOf) : [];
}
