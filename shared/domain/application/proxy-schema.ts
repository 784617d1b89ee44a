// The proxy's dynamic configuration (file provider), checked against its documented structure:
// the proxy itself cannot run here, and a file it cannot load takes the application's routes down.
// Answers the first fault as "path: what is wrong", or null.
type Node = unknown;

const MIDDLEWARES = new Set([
  'addPrefix', 'basicAuth', 'buffering', 'chain', 'circuitBreaker', 'compress', 'contentType', 'digestAuth', 'errors',
  'forwardAuth', 'grpcWeb', 'headers', 'inFlightReq', 'ipAllowList', 'ipWhiteList', 'passTLSClientCert', 'plugin',
  'rateLimit', 'redirectRegex', 'redirectScheme', 'replacePath', 'replacePathRegex', 'retry', 'stripPrefix', 'stripPrefixRegex',
]);
const SERVICES = new Set(['loadBalancer', 'weighted', 'mirroring', 'failover']);
const ROUTER_KEYS = new Set(['entryPoints', 'rule', 'ruleSyntax', 'middlewares', 'service', 'tls', 'priority', 'observability']);

export const isMap = (node: Node): node is Record<string, Node> => typeof node === 'object' && node !== null && !Array.isArray(node);
const isStrings = (node: Node) => Array.isArray(node) && node.every((item) => typeof item === 'string');

/** Each entry of a named section checked by `check`; the section itself must be a mapping. */
function eachEntry(node: Node, path: string, check: (entry: Node, path: string) => string | null): string | null {
  if (node === undefined || node === null) return null;
  if (!isMap(node)) return `${path}: must be a mapping of names`;
  for (const [name, entry] of Object.entries(node)) {
    const fault = check(entry, `${path}.${name}`);
    if (fault) return fault;
  }
  return null;
}

function onlyKeys(node: Record<string, Node>, path: string, allowed: Iterable<string>): string | null {
  const known = new Set(allowed);
  const unknown = Object.keys(node).find((key) => !known.has(key));
  return unknown ? `${path}: unknown key "${unknown}" (expected ${[...known].join(', ')})` : null;
}

function router(node: Node, path: string, needsRule: boolean): string | null {
  if (!isMap(node)) return `${path}: a router must be a mapping`;
  if (needsRule && typeof node.rule !== 'string') return `${path}: "rule" must be a string`;
  if (typeof node.service !== 'string') return `${path}: "service" must be a string`;
  if (node.entryPoints !== undefined && !isStrings(node.entryPoints)) return `${path}: "entryPoints" must be a list of names`;
  if (node.middlewares !== undefined && !isStrings(node.middlewares)) return `${path}: "middlewares" must be a list of names`;
  if (node.priority !== undefined && typeof node.priority !== 'number') return `${path}: "priority" must be a number`;
  return onlyKeys(node, path, ROUTER_KEYS);
}

function service(node: Node, path: string): string | null {
  if (!isMap(node)) return `${path}: a service must be a mapping`;
  const kinds = Object.keys(node);
  if (kinds.length !== 1 || !SERVICES.has(kinds[0]!)) return `${path}: must hold exactly one of ${[...SERVICES].join(', ')}`;
  const balancer = node.loadBalancer;
  if (balancer === undefined) return null;
  if (!isMap(balancer) || !Array.isArray(balancer.servers)) return `${path}.loadBalancer: "servers" must be a list`;
  const bad = balancer.servers.findIndex((server) => !isMap(server) || (typeof server.url !== 'string' && typeof server.address !== 'string'));
  return bad === -1 ? null : `${path}.loadBalancer.servers[${bad}]: needs a "url"`;
}

function middleware(node: Node, path: string): string | null {
  if (!isMap(node)) return `${path}: a middleware must be a mapping`;
  const kinds = Object.keys(node);
  if (kinds.length !== 1 || !MIDDLEWARES.has(kinds[0]!)) return `${path}: must hold exactly one known middleware (such as redirectRegex, basicAuth, headers)`;
  return null;
}

function tls(node: Node): string | null {
  if (!isMap(node)) return 'tls: must be a mapping';
  const keys = onlyKeys(node, 'tls', ['certificates', 'options', 'stores']);
  if (keys) return keys;
  if (node.certificates === undefined) return null;
  if (!Array.isArray(node.certificates)) return 'tls.certificates: must be a list';
  const bad = node.certificates.findIndex((entry) => !isMap(entry) || typeof entry.certFile !== 'string' || typeof entry.keyFile !== 'string');
  return bad === -1 ? null : `tls.certificates[${bad}]: needs "certFile" and "keyFile"`;
}

function section(node: Node, name: 'http' | 'tcp' | 'udp'): string | null {
  if (!isMap(node)) return `${name}: must be a mapping`;
  const keys = onlyKeys(node, name, name === 'http' ? ['routers', 'services', 'middlewares', 'serversTransports']
    : name === 'tcp' ? ['routers', 'services', 'middlewares', 'serversTransports'] : ['routers', 'services']);
  return keys
    ?? eachEntry(node.routers, `${name}.routers`, (entry, path) => router(entry, path, name !== 'udp'))
    ?? eachEntry(node.services, `${name}.services`, service)
    ?? (name === 'http' ? eachEntry(node.middlewares, 'http.middlewares', middleware) : null);
}

export function proxyStructureFault(config: Node): string | null {
  if (config === null || config === undefined) return null;
  if (!isMap(config)) return 'must be a mapping (http, tcp, udp, tls)';
  const keys = onlyKeys(config, 'the top level', ['http', 'tcp', 'udp', 'tls']);
  if (keys) return keys;
  for (const name of ['http', 'tcp', 'udp'] as const) {
    const fault = config[name] === undefined ? null : section(config[name], name);
    if (fault) return fault;
  }
  return config.tls === undefined ? null : tls(config.tls);
}
