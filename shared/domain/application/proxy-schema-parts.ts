// The parts of the proxy's dynamic configuration that HTTP, TCP and UDP share, or that the
// top-level tls section shares with servers transports: routers, weighted services, domains,
// certificates.
import { boolean, fields, integer, isMap, listOf, nonEmptyText, oneOf, text, type Check } from './proxy-schema-checks.ts';
import { ruleFault } from './proxy-rule.ts';

export const texts = listOf(text);

const domains = listOf(fields({ main: text, sans: texts }));

/** A router's tls: `{}` or `true` switches it on; options, certResolver and domains refine it. */
export const routerTls = (extra: Readonly<Record<string, Check>> = {}) =>
  fields({ options: text, certResolver: text, domains, ...extra }, { orSwitch: true });

/** The keys every router has; HTTP and TCP routers need a rule, UDP routers have none. */
const ROUTER = { entryPoints: texts, service: text, priority: integer, ruleSyntax: oneOf('v2', 'v3') };

/**
 * An HTTP or TCP router; its rule must be one the proxy parses, with matchers of its section and
 * syntax: one it cannot parse disables the router.
 */
export function ruledRouter(section: 'http' | 'tcp', extra: Readonly<Record<string, Check>>): Check {
  const keys = fields({ ...ROUTER, rule: nonEmptyText, middlewares: texts, ...extra }, { required: ['rule', 'service'] });
  return (node, path) => {
    const fault = keys(node, path);
    if (fault || !isMap(node)) return fault;
    const why = ruleFault(String(node.rule), section, node.ruleSyntax);
    return why && `${path}.rule: ${why}`;
  };
}
export const udpRouter = fields({ entryPoints: texts, service: text }, { required: ['service'] });

export const weighted = (extra: Readonly<Record<string, Check>> = {}) =>
  fields({ services: listOf(fields({ name: text, weight: integer }, { required: ['name'] })), ...extra });

const certificate = { certFile: text, keyFile: text };
export const certificates = listOf(fields(certificate, { required: ['certFile', 'keyFile'] }));
export const storedCertificates = listOf(fields({ ...certificate, stores: texts }, { required: ['certFile', 'keyFile'] }));
export const defaultCertificate = fields(certificate, { required: ['certFile', 'keyFile'] });

const spiffe = fields({ ids: texts, trustDomain: text }, { orSwitch: true });
const peerCertSANs = listOf(fields({ type: text, value: text }));
/** How the proxy reaches servers over TLS: an HTTP servers transport, or a TCP one's tls. */
export const transportTls = { serverName: text, insecureSkipVerify: boolean, rootCAs: texts, certificates, peerCertURI: text, peerCertSANs, spiffe };
