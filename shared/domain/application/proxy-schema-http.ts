// The http section of the proxy's dynamic configuration: routers, services and servers
// transports, key by key as the proxy (v2 and v3) decodes them. Middlewares have their own file.
import { boolean, duration, fields, integer, listOf, namedEntries, text } from './proxy-schema-checks.ts';
import { httpMiddleware } from './proxy-schema-middlewares.ts';
import { ruledRouter, routerTls, texts, transportTls, weighted } from './proxy-schema-parts.ts';

const observability = fields({ accessLogs: boolean, tracing: boolean, metrics: boolean, traceVerbosity: text });
const router = ruledRouter('http', { tls: routerTls(), observability, parentRefs: texts });

/** Health-check propagation between services: it has no settings, only `{}`. */
const healthPropagation = fields({}, { orSwitch: true });
const cookie = fields({ name: text, secure: boolean, httpOnly: boolean, sameSite: text, maxAge: integer, path: text, domain: text, partitioned: boolean }, { orSwitch: true });
const sticky = fields({ cookie }, { orSwitch: true });

const serverHealthCheck = fields({
  scheme: text, mode: text, path: text, method: text, status: integer, port: integer, interval: duration, unhealthyInterval: duration,
  timeout: duration, hostname: text, followRedirects: boolean, headers: namedEntries(text, 'header values'),
});
const loadBalancer = fields({
  sticky,
  servers: listOf(fields({ url: text, weight: integer, preservePath: boolean }, { required: ['url'] })),
  healthCheck: serverHealthCheck,
  passHostHeader: boolean,
  responseForwarding: fields({ flushInterval: duration }),
  serversTransport: text,
  strategy: text,
}, { required: ['servers'] });
const mirroring = fields({
  service: text, maxBodySize: integer, mirrorBody: boolean, healthCheck: healthPropagation,
  mirrors: listOf(fields({ name: text, percent: integer }, { required: ['name'] })),
}, { required: ['service'] });
const failover = fields({ service: text, fallback: text, healthCheck: healthPropagation }, { required: ['service', 'fallback'] });
const service = fields({ loadBalancer, weighted: weighted({ sticky, healthCheck: healthPropagation }), mirroring, failover }, { oneKind: true });

const forwardingTimeouts = fields({
  dialTimeout: duration, responseHeaderTimeout: duration, idleConnTimeout: duration, readIdleTimeout: duration, pingTimeout: duration,
});
const serversTransport = fields({ ...transportTls, maxIdleConnsPerHost: integer, forwardingTimeouts, disableHTTP2: boolean });

export const httpSection = fields({
  routers: namedEntries(router, 'routers'),
  services: namedEntries(service, 'services'),
  middlewares: namedEntries(httpMiddleware, 'middlewares'),
  serversTransports: namedEntries(serversTransport, 'servers transports'),
});
