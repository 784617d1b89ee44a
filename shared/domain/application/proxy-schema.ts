// The proxy's dynamic configuration (file provider), checked the way the proxy decodes it: the
// proxy itself cannot run here, and one file it cannot decode stops it loading the whole folder,
// every application's routes with it. Answers the first fault as a sentence naming its path, or null.
import { boolean, duration, fields, integer, isMap, listOf, namedEntries, text, unknownKeyFault, type Check } from './proxy-schema-checks.ts';
import { httpSection } from './proxy-schema-http.ts';
import { withMerges } from './proxy-schema-merges.ts';
import { tcpMiddleware } from './proxy-schema-middlewares.ts';
import {
  certificates, defaultCertificate, routerTls, ruledRouter, storedCertificates, texts, transportTls, udpRouter, weighted,
} from './proxy-schema-parts.ts';

export { isMap } from './proxy-schema-checks.ts';

// `{}` switches these on with their defaults.
const proxyProtocol = fields({ version: integer }, { orSwitch: true });
const tcpLoadBalancer = fields({
  servers: listOf(fields({ address: text, tls: boolean, weight: integer }, { required: ['address'] })),
  proxyProtocol,
  terminationDelay: integer,
  serversTransport: text,
  healthCheck: fields({ port: integer, send: text, expect: text, interval: duration, unhealthyInterval: duration, timeout: duration }, { orSwitch: true }),
}, { required: ['servers'] });
const tcpServersTransport = fields({
  dialKeepAlive: duration, dialTimeout: duration, terminationDelay: duration, tls: fields(transportTls, { orSwitch: true }), proxyProtocol,
});
const tcpSection = fields({
  routers: namedEntries(ruledRouter('tcp', { tls: routerTls({ passthrough: boolean }) }), 'routers'),
  services: namedEntries(fields({ loadBalancer: tcpLoadBalancer, weighted: weighted() }, { oneKind: true }), 'services'),
  middlewares: namedEntries(tcpMiddleware, 'middlewares'),
  serversTransports: namedEntries(tcpServersTransport, 'servers transports'),
});

const udpLoadBalancer = fields({ servers: listOf(fields({ address: text }, { required: ['address'] })) }, { required: ['servers'] });
const udpSection = fields({
  routers: namedEntries(udpRouter, 'routers'),
  services: namedEntries(fields({ loadBalancer: udpLoadBalancer, weighted: weighted() }, { oneKind: true }), 'services'),
});

const tlsOptions = fields({
  minVersion: text, maxVersion: text, cipherSuites: texts, curvePreferences: texts, sniStrict: boolean, alpnProtocols: texts,
  clientAuth: fields({ caFiles: texts, clientAuthType: text }), preferServerCipherSuites: boolean, disableSessionTickets: boolean,
});
const tlsStore = fields({
  defaultCertificate,
  defaultGeneratedCert: fields({ resolver: text, domain: fields({ main: text, sans: texts }) }),
  certificates,
});
const tlsSection = fields({
  certificates: storedCertificates,
  options: namedEntries(tlsOptions, 'TLS options', true),
  stores: namedEntries(tlsStore, 'TLS stores', true),
});

const SECTIONS: Readonly<Record<string, Check>> = { http: httpSection, tcp: tcpSection, udp: udpSection, tls: tlsSection };
// The proxy reads only these four at the top and skips the rest; an `x-` key is where YAML users
// keep the parts their aliases share, any other key is far more likely a typo.
const isSharedParts = (key: string) => key.startsWith('x-');

function topLevelKeyFault(key: string): string {
  const fault = unknownKeyFault(key, key, Object.keys(SECTIONS));
  return fault.includes('not a known key') ? `${fault} (a key starting with x- may hold the parts aliases share)` : fault;
}

function sectionsFault(config: Record<string, unknown>): string | null {
  for (const [key, value] of Object.entries(config)) {
    if (isSharedParts(key)) continue;
    if (!Object.hasOwn(SECTIONS, key)) return topLevelKeyFault(key);
    const fault = value === null || value === undefined ? null : SECTIONS[key]!(value, key);
    if (fault) return fault;
  }
  return null;
}

export function proxyStructureFault(config: unknown): string | null {
  if (config === null || config === undefined) return null;
  if (!isMap(config)) return 'must be a mapping (http, tcp, udp, tls)';
  const merged = withMerges(config);
  return 'fault' in merged ? merged.fault : sectionsFault(merged.config);
}
