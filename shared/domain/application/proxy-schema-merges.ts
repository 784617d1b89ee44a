// YAML merge keys (`<<: *defaults`, YAML 1.1), folded in as the proxy's YAML reader folds them.
// Berth parses the text as YAML 1.2, where a merge is a plain `<<` key holding the alias's value.
import { isMap } from './proxy-schema-checks.ts';

class UnreadableMerge extends Error {}

/** Where a merge would bring in the names of routers, services or middlewares, or a whole section. */
const NAMES_ARE_DEFINED = /^((http|tcp|udp)(\.(routers|services|middlewares))?)?$/;

function namesFault(path: string): string {
  return `${path ? `${path}.` : ''}<< must not be used here: write out what it would bring in, so that Berth can check the names `
    + 'of routers, services and middlewares against those other applications define';
}

/** The node with every merge folded in: its own keys first, then the merged mappings, earlier ones first. */
function folded(node: unknown, path: string, ancestors: ReadonlySet<unknown>): unknown {
  if (ancestors.has(node)) throw new UnreadableMerge(`${path} is an alias of a mapping that contains it, which the proxy cannot read`);
  if (!Array.isArray(node) && !isMap(node)) return node;
  const inner = new Set(ancestors).add(node);
  if (Array.isArray(node)) return node.map((item, index) => folded(item, `${path}[${index}]`, inner));
  const within = (key: string) => (path ? `${path}.${key}` : key);
  const { '<<': merge, ...own } = node;
  if (merge !== undefined && NAMES_ARE_DEFINED.test(path)) throw new UnreadableMerge(namesFault(path));
  const sources: unknown[] = merge === undefined ? [] : Array.isArray(merge) ? merge : [merge];
  if (!sources.every(isMap)) throw new UnreadableMerge(`${within('<<')} must be an alias of a mapping (or a list of them), such as <<: *defaults`);
  const base = sources.toReversed().map((source) => folded(source, within('<<'), inner));
  const entries = Object.entries(own).map(([key, value]) => [key, folded(value, within(key), inner)]);
  return Object.assign({}, ...base, Object.fromEntries(entries));
}

/** The configuration with its merges folded in, or the sentence saying why they cannot be. */
export function withMerges(config: Record<string, unknown>): { readonly config: Record<string, unknown> } | { readonly fault: string } {
  try {
    const result = folded(config, '', new Set());
    return { config: isMap(result) ? result : {} };
  } catch (error) {
    if (error instanceof UnreadableMerge) return { fault: error.message };
    throw error;
  }
}
