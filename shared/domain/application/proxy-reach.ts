// What an application's proxy configuration may reach. The proxy reads every application's file
// from one folder, so a router in one file can use a service or middleware another file defines
// (skipping that application's basic-auth), claim a host another application serves (with a
// higher priority it takes that host's traffic), and a server URL can name another service's
// runtime name. A caller may reach only what it manages: its application's own parts, the proxy's
// internal ones, and the services it may see; an admin manages all. Pure: the others come in.
import { isIP } from 'node:net';
import { badRequest, conflict } from '../../errors.ts';
import { berthPartNamed } from './proxy-names.ts';
import { parsedConfig } from './proxy-config.ts';
import { serviceNamed } from '../runtime-name.ts';
import { isMap } from './proxy-schema.ts';
import { withMerges } from './proxy-schema-merges.ts';
import { parseRule, type RuleNode } from './proxy-rule.ts';
import { exhaustive } from '../aggregate.ts';

/** Another Berth service (application, compose or database), as the caller sees it. */
export interface ReachableService {
  readonly appName: string;
  /** An application's saved configuration; null for one without, and for other kinds (Berth writes no file for them). */
  readonly proxyConfig: string | null;
  /** Berth writes a proxy file (its service and middlewares) for applications only. */
  readonly isApplication: boolean;
  /** Whether the caller manages it. */
  readonly managed: boolean;
}

type Mapping = Record<string, unknown>;
type Kind = 'service' | 'middleware';
interface Reference { readonly kind: Kind; readonly name: string; readonly user: string }

const SECTIONS = ['http', 'tcp', 'udp'] as const;
const PLURAL: Record<Kind, string> = { service: 'services', middleware: 'middlewares' };

const mapOf = (value: unknown): Mapping => (isMap(value) ? value : {});
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const textsOf = (value: unknown): string[] => listOf(value).filter((item): item is string => typeof item === 'string');
const entriesOf = (config: Mapping, section: string, kind: string): [string, Mapping][] =>
  Object.entries(mapOf(mapOf(config[section])[kind])).map(([name, entry]) => [name, mapOf(entry)]);

/** The configuration as the proxy reads it (merges folded in); empty when it does not parse. */
export function readConfig(text: string | null | undefined): Mapping {
  const config = parsedConfig(text);
  if (!isMap(config)) return {};
  const merged = withMerges(config);
  return 'config' in merged ? merged.config : {};
}

// ---- References: the services and middlewares a configuration uses, by name.

export function referencesIn(config: Mapping): Map<string, Reference[]> {
  const bySection = new Map<string, Reference[]>();
  for (const section of SECTIONS) {
    const references: Reference[] = [];
    const add = (kind: Kind, name: unknown, user: string) => {
      if (typeof name === 'string') references.push({ kind, name, user });
    };
    for (const [name, router] of entriesOf(config, section, 'routers')) {
      const user = `${section}.routers.${name}`;
      add('service', router.service, user);
      for (const middleware of textsOf(router.middlewares)) add('middleware', middleware, user);
    }
    for (const [name, service] of entriesOf(config, section, 'services')) {
      const user = `${section}.services.${name}`;
      for (const part of listOf(mapOf(service.weighted).services)) add('service', mapOf(part).name, user);
      const mirroring = mapOf(service.mirroring);
      add('service', mirroring.service, user);
      for (const mirror of listOf(mirroring.mirrors)) add('service', mapOf(mirror).name, user);
      add('service', mapOf(service.failover).service, user);
      add('service', mapOf(service.failover).fallback, user);
    }
    for (const [name, middleware] of entriesOf(config, section, 'middlewares')) {
      const user = `${section}.middlewares.${name}`;
      for (const inner of textsOf(mapOf(middleware.chain).middlewares)) add('middleware', inner, user);
      add('service', mapOf(middleware.errors).service, user);
    }
    bySection.set(section, references);
  }
  return bySection;
}

const defines = (config: Mapping, section: string, kind: Kind, name: string): boolean =>
  Object.hasOwn(mapOf(mapOf(config[section])[PLURAL[kind]]), name);

/** Berth writes only HTTP services and middlewares, each in its own kind. */
function isBerthPart(appName: string, section: string, kind: Kind, name: string): boolean {
  const part = berthPartNamed(appName, name);
  return section === 'http' && part !== null && (part === 'service') === (kind === 'service');
}

/** Why a reference is not the caller's to use, or null when it is. */
function referenceFault(
  section: string, reference: Reference, own: Mapping, appName: string, others: readonly (ReachableService & { config: Mapping })[],
): string | null {
  const [name = '', provider] = reference.name.split('@');
  if (provider === 'internal') return null;
  const uses = `${reference.user} uses the ${reference.kind} ${reference.name}`;
  if (provider !== undefined && provider !== 'file') return `${uses}, which the ${provider} provider defines, not this configuration`;
  if (defines(own, section, reference.kind, name) || isBerthPart(appName, section, reference.kind, name)) return null;
  const owner = others.find((other) => other.isApplication
    && (isBerthPart(other.appName, section, reference.kind, name) || defines(other.config, section, reference.kind, name)));
  if (owner?.managed) return null;
  const whose = owner ? `, which application ${owner.appName}'s proxy file defines and this account does not manage` : ', which this configuration does not define';
  return `${uses}${whose}: a configuration may use only its own ${PLURAL[reference.kind]}, those Berth writes for this application `
    + `(${appName}-service, ${appName}-auth, ${appName}-redirect-<redirectId>) and the proxy's own (name@internal)`;
}

// ---- Hosts: which hosts a router's rule confines it to.

/** The hosts a rule may match: named ones and patterns, or any host at all. */
type Hosts = { readonly any: true } | { readonly any: false; readonly names: readonly string[]; readonly patterns: readonly RegExp[] };
const ANY: Hosts = { any: true };

/** A HostRegexp value as a pattern: `{name:re}` parts (the proxy's v2 syntax) or a regular expression (v3). */
function patternOf(value: string): RegExp | null {
  const v2 = /\{([A-Za-z_]\w*)(?::([^}]*))?\}/g;
  try {
    // Not `v2.test`: on a global pattern it moves lastIndex, and matchAll below would start past the first part.
    if (!value.match(v2)) return new RegExp(value, 'i');
    let source = '';
    let last = 0;
    for (const match of value.matchAll(v2)) {
      source += value.slice(last, match.index).replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + (match[2] ? `(?:${match[2]})` : '[^.]+');
      last = match.index + match[0].length;
    }
    return new RegExp(`^${source}${value.slice(last).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i');
  } catch {
    return null;
  }
}

const join = (a: Hosts, b: Hosts): Hosts => (a.any || b.any ? ANY
  : { any: false, names: [...a.names, ...b.names], patterns: [...a.patterns, ...b.patterns] });

function matcherHosts(matcher: string, values: readonly string[]): Hosts {
  const name = matcher.toLowerCase();
  if (name === 'host' || name === 'hostheader' || name === 'hostsni') {
    const names = values.map((value) => value.toLowerCase().replace(/\.$/, ''));
    return names.includes('*') ? ANY : { any: false, names, patterns: [] };
  }
  if (name === 'hostregexp' || name === 'hostsniregexp') {
    const patterns = values.map(patternOf);
    return patterns.every((pattern) => pattern !== null) ? { any: false, names: [], patterns: patterns as RegExp[] } : ANY;
  }
  return ANY;
}

/** The hosts a parsed rule confines its router to. */
function hostsOf(node: RuleNode): Hosts {
  switch (node.kind) {
    case 'matcher': return matcherHosts(node.name, node.values);
    case 'not': return ANY;
    case 'or': return join(hostsOf(node.left), hostsOf(node.right));
    case 'and': {
      const [left, right] = [hostsOf(node.left), hostsOf(node.right)];
      return left.any ? right : right.any ? left : join(left, right);
    }
    default: return exhaustive(node);
  }
}

/**
 * The hosts a rule confines its router to; any host when it cannot tell (a rule the proxy cannot
 * parse among them). Over-approximated, never under: `a && b` may match only hosts of both, counted
 * as those of either; a negation any host.
 */
export function hostsOfRule(rule: string): Hosts {
  const parsed = parseRule(rule);
  return 'node' in parsed ? hostsOf(parsed.node) : ANY;
}

const rulesOf = (config: Mapping): [string, string][] => (['http', 'tcp'] as const).flatMap((section) =>
  entriesOf(config, section, 'routers').flatMap(([name, router]) =>
    (typeof router.rule === 'string' ? [[`${section}.routers.${name}`, router.rule] as [string, string]] : [])));

/** The hosts other applications serve: names, patterns, and whether some rule of theirs may match any host. */
interface Served { names: string[]; patterns: RegExp[]; any: boolean }

/**
 * A host the other hosts serve that `mine` also matches, or null. Two patterns are taken to meet
 * when they are written alike (whether two regular expressions share a host is not decidable here);
 * a rule of theirs that may match any host (no host in it, or a pattern JavaScript cannot read)
 * meets only a rule of mine that may too, as their own specific hosts are what they serve.
 */
function sharedHost(mine: Hosts, served: Served): string | null {
  if (mine.any) return served.names[0] ?? served.patterns[0]?.source ?? (served.any ? 'any host' : null);
  const named = new Set(served.names);
  const sources = new Set(served.patterns.map((pattern) => pattern.source));
  return mine.names.find((name) => named.has(name) || served.patterns.some((pattern) => pattern.test(name)))
    ?? served.names.find((name) => mine.patterns.some((pattern) => pattern.test(name)))
    ?? mine.patterns.find((pattern) => sources.has(pattern.source))?.source
    ?? null;
}

// ---- Server URLs: which service a server's address names.

const INTERNAL_V4 = [/^10\./, /^127\./, /^169\.254\./, /^172\.(1[6-9]|2\d|3[01])\./, /^192\.168\./, /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./, /^0\./];

/** An IP literal of a private, loopback or link-local range: where the engine's networks live. */
function isInternalAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  const version = isIP(bare);
  if (version === 4) return INTERNAL_V4.some((range) => range.test(bare));
  if (version === 6) return bare === '::1' || /^(f[cd]|fe[89ab])/i.test(bare) || /^::ffff:/i.test(bare);
  return false;
}

/** The host of a server URL (`http://name:80`) or address (`name:5432`), as the engine's resolver reads it. */
function serverHost(address: string): string | null {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `tcp://${address}`);
    return url.hostname.toLowerCase().replace(/\.$/, '').replace(/^tasks\./, '');
  } catch {
    return null;
  }
}

function serverAddresses(config: Mapping): [string, string][] {
  const found: [string, string][] = [];
  for (const section of SECTIONS) {
    for (const [name, service] of entriesOf(config, section, 'services')) {
      listOf(mapOf(service.loadBalancer).servers).forEach((server, index) => {
        const { url, address } = mapOf(server);
        const value = section === 'http' ? url : address;
        if (typeof value === 'string') found.push([`${section}.services.${name}.loadBalancer.servers[${index}].${section === 'http' ? 'url' : 'address'}`, value]);
      });
    }
  }
  for (const [name, middleware] of entriesOf(config, 'http', 'middlewares')) {
    const { address } = mapOf(middleware.forwardAuth);
    if (typeof address === 'string') found.push([`http.middlewares.${name}.forwardAuth.address`, address]);
  }
  return found;
}

/**
 * BAD_REQUEST naming proxyConfig when the configuration uses a service or middleware that is not
 * its own, nor Berth's for `appName`, nor the proxy's, nor of a service the caller manages; or when
 * a server's address names a service the caller does not manage. CONFLICT naming proxyConfig when
 * a router's rule may match a host an application the caller does not manage serves. Nothing is
 * refused to a caller who manages every service.
 */
export function mustReachOnlyWhatItManages(text: string, appName: string, others: readonly ReachableService[], managesAll: boolean): void {
  if (managesAll) return;
  const own = readConfig(text);
  const read = others.map((other) => ({ ...other, config: readConfig(other.proxyConfig) }));

  for (const [section, references] of referencesIn(own)) {
    for (const reference of references) {
      const fault = referenceFault(section, reference, own, appName, read);
      if (fault) throw badRequest('proxyConfig', fault);
    }
  }

  const self = { appName, managed: true };
  for (const [path, address] of serverAddresses(own)) {
    const host = serverHost(address);
    // An address another project's service may have on the engine's networks (read from its
    // container) is not a name this check can tell the owner of.
    if (host !== null && isInternalAddress(host)) {
      throw badRequest('proxyConfig', `${path}: ${address} is an internal IP address, which another project's service may have; name a service this account manages, or a host name`);
    }
    const service = host === null ? undefined : serviceNamed(host, [self, ...others]);
    if (service && !service.managed) {
      throw badRequest('proxyConfig', `${path}: ${address} reaches ${service.appName}, another Berth service this account does not manage`);
    }
  }

  const served: Served = { names: [], patterns: [], any: false };
  for (const other of read.filter((service) => service.isApplication && !service.managed)) {
    for (const [, rule] of rulesOf(other.config)) {
      const hosts = hostsOfRule(rule);
      if (hosts.any) served.any = true;
      else { served.names.push(...hosts.names); served.patterns.push(...hosts.patterns); }
    }
  }
  for (const [path, rule] of rulesOf(own)) {
    const hosts = hostsOfRule(rule);
    const host = sharedHost(hosts, served);
    if (host === null) continue;
    throw conflict(hosts.any
      ? `${path}: the rule may match any host, ${host} among them, which another application serves; confine it with Host(\`...\`) to this application's own hosts`
      : `${path}: the rule claims the host ${host}, which another application serves`, 'proxyConfig');
  }
}
