// The parts of the proxy's dynamic configuration that HTTP, TCP and UDP share, or that the
// top-level tls section shares with servers transports: routers, weighted services, domains,
// certificates.
import { boolean, fields, integer, listOf, nonEmptyText, text, type Check } from './proxy-schema-checks.ts';

export const texts = listOf(text);

const domains = listOf(fields({ main: text, sans: texts }));

/** A router's tls: `{}` or `true` switches it on; options, certResolver and domains refine it. */
export const routerTls = (extra: Readonly<Record<string, Check>> = {}) =>
  fields({ options: text, certResolver: text, domains, ...extra }, { orSwitch: true });

/** The keys every router has; HTTP and TCP routers need a rule, UDP routers have none. */
const ROUTER = { entryPoints: texts, service: text, priority: integer, ruleSyntax: text };

export const ruledRouter = (extra: Readonly<Record<string, Check>>) =>
  fields({ ...ROUTER, rule: nonEmptyText, middlewares: texts, ...extra }, { required: ['rule', 'service'] });
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
