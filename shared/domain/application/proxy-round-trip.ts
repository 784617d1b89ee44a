// readProxyConfig answers the whole file Berth wrote: its service, middlewares and certificates
// beside the user's part. Saving it back would define Berth's names, refused as the user's; so an
// entry of Berth's that is exactly as the file holds it is left out of what is saved (Berth writes
// it again from its records), and one with other content is left in, to be refused as before.
// Pure: the file comes in.
import { isDeepStrictEqual } from 'node:util';
import { isMap as isYamlMap, isNode, isSeq, parse, parseDocument, type Document } from 'yaml';
import { berthPartNamed, isBerthMiddlewareName, serviceName } from './proxy-names.ts';

const mapOf = (value: unknown): Record<string, unknown> =>
  (value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {});

// The comment lines Berth heads its file with (the owner, the redirects once numbered).
const BERTH_COMMENT = /^ ?(The proxy's dynamic configuration of .*, written by Berth\.|Redirects once numbered: .*)$/;

/** Deletes the mapping at `path` when nothing is left in it, then its parents likewise. */
function pruneEmpty(document: Document, path: readonly string[]): void {
  for (let depth = path.length; depth > 0; depth--) {
    const node = document.getIn(path.slice(0, depth));
    if (!(isYamlMap(node) || isSeq(node)) || node.items.length > 0) return;
    document.deleteIn(path.slice(0, depth));
  }
}

/** Whether a certificate entry is one Berth writes: a certificate's own two files in the proxy's folder. */
const isBerthCertificate = (entry: unknown, proxyDir: string): boolean => {
  const { certFile, keyFile } = mapOf(entry);
  return typeof certFile === 'string' && typeof keyFile === 'string' && certFile.startsWith(`${proxyDir}/`)
    && certFile.endsWith('/chain.crt') && keyFile === `${certFile.slice(0, -'chain.crt'.length)}privkey.key`;
};

/**
 * A router to this application's service gets Berth's middlewares appended on every write, whatever
 * it lists: the names of them the file showed are left out, so they are not kept as the user's.
 */
function withoutOurMiddlewares(document: Document, given: Record<string, unknown>, appName: string): boolean {
  let changed = false;
  for (const [name, router] of Object.entries(mapOf(mapOf(given.http).routers))) {
    const { service, middlewares } = mapOf(router);
    if (String(service).replace(/@file$/, '') !== serviceName(appName) || !Array.isArray(middlewares)) continue;
    for (let index = middlewares.length - 1; index >= 0; index--) {
      if (!isBerthMiddlewareName(appName, String(middlewares[index]))) continue;
      document.deleteIn(['http', 'routers', name, 'middlewares', index]);
      changed = true;
    }
    pruneEmpty(document, ['http', 'routers', name, 'middlewares']);
  }
  return changed;
}

/**
 * `text` without the entries Berth wrote for `appName` exactly as `file` holds them; the text as
 * given when it holds none (or does not parse: the checks say why).
 */
export function withoutBerthsOwn(text: string, file: string | null, appName: string, proxyDir: string): string {
  if (!file) return text;
  const document = parseDocument(text);
  if (document.errors.length > 0) return text;
  let written: unknown;
  try { written = parse(file); } catch { return text; }
  const given = mapOf(document.toJS());
  let changed = false;
  for (const kind of ['services', 'middlewares'] as const) {
    const theirs = mapOf(mapOf(given.http)[kind]);
    const ours = mapOf(mapOf(mapOf(written).http)[kind]);
    for (const [name, entry] of Object.entries(theirs)) {
      if (berthPartNamed(appName, name) === null || !Object.hasOwn(ours, name) || !isDeepStrictEqual(entry, ours[name])) continue;
      document.deleteIn(['http', kind, name]);
      changed = true;
    }
    pruneEmpty(document, ['http', kind]);
  }
  const certificates = mapOf(given.tls).certificates;
  const writtenCertificates = mapOf(mapOf(written).tls).certificates;
  const inFile = (entry: unknown) => Array.isArray(writtenCertificates) && writtenCertificates.some((other) => isDeepStrictEqual(entry, other));
  if (Array.isArray(certificates)) {
    // From the last, so the indexes still to visit do not move.
    for (let index = certificates.length - 1; index >= 0; index--) {
      if (!isBerthCertificate(certificates[index], proxyDir) || !inFile(certificates[index])) continue;
      document.deleteIn(['tls', 'certificates', index]);
      changed = true;
    }
    pruneEmpty(document, ['tls', 'certificates']);
  }
  changed = withoutOurMiddlewares(document, given, appName) || changed;
  // The header is the document's comment, or its first key's when no blank line follows it.
  const first = isYamlMap(document.contents) ? document.contents.items[0]?.key : undefined;
  const holders: { commentBefore?: string | null }[] = [document, ...(isNode(first) ? [first] : [])];
  for (const holder of holders) {
    const comment = holder.commentBefore?.split('\n').filter((line) => !BERTH_COMMENT.test(line)).join('\n');
    if (comment !== holder.commentBefore) {
      holder.commentBefore = comment || null;
      changed = true;
    }
  }
  return changed ? document.toString() : text;
}
