// Gives every service, named volume and named network of a compose file a suffix, with every
// reference to them, so the same file can run twice side by side. It edits the parsed document
// in place, so comments, anchors and the author's layout survive.
import { isMap, isScalar, isSeq, type Document, type Pair, type YAMLMap } from 'yaml';
import { deref, keyOf, parseComposeFile } from './compose-file.ts';

/**
 * A suffix must keep every name it is added to a valid compose name, which the engine takes: it
 * ends with a letter or digit (a name ending in "." or "-" is refused by the engine).
 */
export const SUFFIX = /^[a-zA-Z0-9_.-]{0,62}[a-zA-Z0-9]$/;

interface Names {
  readonly services: ReadonlySet<string>;
  readonly volumes: ReadonlySet<string>;
  readonly networks: ReadonlySet<string>;
}

/** `text` with `-<suffix>` added to each of its names; an empty or unreadable text is left as it is. */
export function randomizeComposeFile(text: string, suffix: string): string {
  const document = parseComposeFile(text);
  if (document === null || document.errors.length > 0 || !isMap(document.contents)) return text;
  new Renamer(document, document.contents, suffix).run();
  return document.toString({ lineWidth: 0, flowCollectionPadding: false });
}

const mapAt = (document: Document, map: YAMLMap, key: string): YAMLMap | null => {
  const node = deref(document, map.get(key, true));
  return isMap(node) ? node : null;
};

/** External volumes and networks exist outside the file: their names are not the file's to change. */
const isExternal = (document: Document, value: unknown) => {
  const node = deref(document, value);
  return isMap(node) && Boolean(node.get('external'));
};

class Renamer {
  /** Nodes already rewritten: an anchored node reached twice through aliases changes once. */
  private readonly done = new Set<object>();
  private readonly names: Names;

  constructor(private readonly document: Document, private readonly root: YAMLMap, private readonly suffix: string) {
    const own = (key: string) => new Set((mapAt(document, root, key)?.items ?? [])
      .filter((pair) => !isExternal(document, pair.value)).map(keyOf));
    this.names = { services: own('services'), volumes: own('volumes'), networks: own('networks') };
  }

  run(): void {
    for (const pair of mapAt(this.document, this.root, 'services')?.items ?? []) {
      this.service(deref(this.document, pair.value));
      this.renameKey(pair, this.names.services);
    }
    for (const pair of mapAt(this.document, this.root, 'volumes')?.items ?? []) this.renameKey(pair, this.names.volumes);
    for (const pair of mapAt(this.document, this.root, 'networks')?.items ?? []) this.renameKey(pair, this.names.networks);
  }

  private service(node: unknown): void {
    if (!isMap(node) || !this.first(node)) return;
    for (const pair of node.items) {
      const value = deref(this.document, pair.value);
      switch (keyOf(pair)) {
        // A merge key (`<<: *defaults`) brings another service body in: its references count too.
        case '<<': for (const item of isSeq(value) ? value.items : [value]) this.service(deref(this.document, item)); break;
        case 'depends_on': this.entries(value, this.names.services); break;
        case 'networks': this.entries(value, this.names.networks); break;
        case 'links': this.each(value, (text) => this.head(text, this.names.services)); break;
        case 'volumes': this.volumes(value); break;
        case 'volumes_from': this.each(value, (text) => this.volumeFrom(text)); break;
        case 'extends': this.extends(value); break;
        case 'network_mode': this.scalar(value, (text) => this.prefixed(text, 'service:')); break;
        case 'container_name': this.scalar(value, (text) => `${text}-${this.suffix}`); break;
        default: break;
      }
    }
  }

  /** A list of names (`[db, cache]`) or a mapping keyed by them (`{ db: { condition: … } }`). */
  private entries(node: unknown, names: ReadonlySet<string>): void {
    if (isMap(node) && this.first(node)) for (const pair of node.items) this.renameKey(pair, names);
    else this.each(node, (text) => this.renamed(text, names));
  }

  /** Short form `data:/var/lib/data[:ro]`, or long form `{ type: volume, source: data, … }`. */
  private volumes(node: unknown): void {
    if (!isSeq(node) || !this.first(node)) return;
    for (const item of node.items) {
      const entry = deref(this.document, item);
      if (isMap(entry)) {
        const type = entry.get('type');
        if (type === undefined || type === 'volume') this.scalar(entry.get('source', true), (text) => this.renamed(text, this.names.volumes));
      } else {
        this.scalar(entry, (text) => (text.includes(':') ? this.head(text, this.names.volumes) : text));
      }
    }
  }

  /** `service_name[:ro]`, `service:service_name[:ro]` or `container:name[:ro]` (not the file's). */
  private volumeFrom(text: string): string {
    if (text.startsWith('container:')) return text;
    return text.startsWith('service:') ? this.prefixed(text, 'service:') : this.head(text, this.names.services);
  }

  /** `extends: { service: web }` names a service of this file unless it names another `file`. */
  private extends(node: unknown): void {
    if (isMap(node)) {
      if (!node.has('file')) this.scalar(node.get('service', true), (text) => this.renamed(text, this.names.services));
    } else {
      this.scalar(node, (text) => this.renamed(text, this.names.services));
    }
  }

  private each(node: unknown, rewrite: (text: string) => string): void {
    if (isSeq(node) && this.first(node)) for (const item of node.items) this.scalar(deref(this.document, item), rewrite);
  }

  private scalar(node: unknown, rewrite: (text: string) => string): void {
    const target = deref(this.document, node);
    if (isScalar(target) && typeof target.value === 'string' && this.first(target)) target.value = rewrite(target.value);
  }

  private renameKey(pair: Pair, names: ReadonlySet<string>): void {
    if (isScalar(pair.key) && this.first(pair.key)) pair.key.value = this.renamed(keyOf(pair), names);
  }

  private renamed(name: string, names: ReadonlySet<string>): string {
    return names.has(name) ? `${name}-${this.suffix}` : name;
  }

  /** `name:rest` with `name` renamed when it is one of `names`. */
  private head(text: string, names: ReadonlySet<string>): string {
    const colon = text.indexOf(':');
    const name = colon === -1 ? text : text.slice(0, colon);
    return this.renamed(name, names) + (colon === -1 ? '' : text.slice(colon));
  }

  /** `service:name[:rest]` with the service renamed. */
  private prefixed(text: string, prefix: string): string {
    return text.startsWith(prefix) ? prefix + this.head(text.slice(prefix.length), this.names.services) : text;
  }

  private first(node: object): boolean {
    if (this.done.has(node)) return false;
    this.done.add(node);
    return true;
  }
}
