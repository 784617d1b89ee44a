import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../errors.ts';
import { checkProxyConfig } from './proxy-config.ts';

// Each configuration goes through checkProxyConfig, as updateProxyConfig sends it.
const APP = 'shop-abc123';
const refusal = (text: string): DomainError | null => {
  try {
    checkProxyConfig(text, APP);
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
};

const router = (extra: string) => `http:\n  routers:\n    r:\n      rule: Host(\`a.test\`)\n      service: s\n${extra}`;
const middleware = (body: string) => `http:\n  middlewares:\n    m:\n${body}`;
const service = (section: string, body: string) => `${section}:\n  services:\n    s:\n${body}`;

/** [what, configuration, the start of the sentence that refuses it] */
const REFUSED: readonly (readonly [string, string, string])[] = [
  // The audit's examples: accepted before, refused by the proxy.
  ['priority 1.5', router('      priority: 1.5\n'), 'http.routers.r.priority must be an integer'],
  ['an empty rule', 'http:\n  routers:\n    r:\n      rule: ""\n      service: s\n', 'http.routers.r.rule must be non-empty text'],
  ['redirectRegex permanent: maybe', middleware('      redirectRegex:\n        regex: "^/a"\n        replacement: /b\n        permanent: maybe\n'),
    'http.middlewares.m.redirectRegex.permanent must be true or false'],
  ['a typo key in headers', middleware('      headers:\n        customResponseHeader:\n          X-A: "1"\n'),
    'http.middlewares.m.headers.customResponseHeader is not a known key here; did you mean customResponseHeaders?'],
  ['basicAuth as a string', middleware('      basicAuth: "alice"\n'), 'http.middlewares.m.basicAuth must be a mapping of users'],
  ['an HTTP server with only an address', service('http', '      loadBalancer:\n        servers: [{address: "10.0.0.1:80"}]\n'),
    'http.services.s.loadBalancer.servers[0].address is not a known key here'],
  ['a TCP server with a url', service('tcp', '      loadBalancer:\n        servers: [{url: "http://x:80"}]\n'),
    'tcp.services.s.loadBalancer.servers[0].url is not a known key here'],
  ['a TCP mirroring service', service('tcp', '      mirroring:\n        service: x\n'), 'tcp.services.s.mirroring is not a known key here'],
  ['a UDP router with a rule', 'udp:\n  routers:\n    u:\n      rule: Host(`x`)\n      service: s\n', 'udp.routers.u.rule is not a known key here'],
  ['a UDP router with middlewares', 'udp:\n  routers:\n    u:\n      middlewares: [m]\n      service: s\n', 'udp.routers.u.middlewares is not a known key here'],
  ['an unknown key in loadBalancer', service('http', '      loadBalancer:\n        servers: [{url: "http://x"}]\n        passHostHeaders: true\n'),
    'http.services.s.loadBalancer.passHostHeaders is not a known key here'],
  // Types and shapes.
  ['router tls as text', router('      tls: maybe\n'), 'http.routers.r.tls must be a mapping of options, certResolver, domains'],
  ['an unknown key in router tls', router('      tls:\n        certresolvers: le\n'), 'http.routers.r.tls.certresolvers is not a known key here'],
  ['passthrough on an HTTP router', router('      tls:\n        passthrough: true\n'), 'http.routers.r.tls.passthrough is not a known key here'],
  ['a key spelt in another case', router('      entrypoints: [web]\n'), 'http.routers.r.entrypoints must be spelt entryPoints'],
  ['entryPoints as text', router('      entryPoints: web\n'), 'http.routers.r.entryPoints must be a list'],
  ['a mapping in a list of names', router('      middlewares: [{name: a}]\n'), 'http.routers.r.middlewares[0] must be text'],
  ['a router without a rule', 'http:\n  routers:\n    x:\n      service: s\n', 'http.routers.x.rule is missing'],
  ['a router without a service', 'http:\n  routers:\n    x:\n      rule: Host(`a.test`)\n', 'http.routers.x.service is missing'],
  ['a service of two kinds', service('http', '      loadBalancer:\n        servers: [{url: "http://x"}]\n      failover:\n        service: a\n        fallback: b\n'),
    'http.services.s must hold exactly one of loadBalancer, weighted, mirroring, failover'],
  ['a server given as text', service('http', '      loadBalancer:\n        servers: ["http://x"]\n'), 'http.services.s.loadBalancer.servers[0] must be a mapping of url'],
  ['passHostHeader: yes', service('http', '      loadBalancer:\n        servers: [{url: "http://x"}]\n        passHostHeader: yes\n'),
    'http.services.s.loadBalancer.passHostHeader must be true or false'],
  ['a weight that is not a number', service('http', '      weighted:\n        services:\n          - name: a\n            weight: heavy\n'),
    'http.services.s.weighted.services[0].weight must be an integer'],
  ['a duration without a unit', middleware('      rateLimit:\n        average: 100\n        period: 1.5\n'), 'http.middlewares.m.rateLimit.period must be a duration'],
  ['an unknown middleware', middleware('      rewriteHeaders:\n        x: y\n'), 'http.middlewares.m.rewriteHeaders is not a known key here'],
  ['a middleware of two kinds', middleware('      addPrefix:\n        prefix: /a\n      stripPrefix:\n        prefixes: [/b]\n'), 'http.middlewares.m must hold exactly one of'],
  ['headers given as a list', middleware('      headers:\n        customRequestHeaders: ["X-A: 1"]\n'),
    'http.middlewares.m.headers.customRequestHeaders must be a mapping of names to header values'],
  ['an unknown key in forwardAuth tls', middleware('      forwardAuth:\n        address: http://auth\n        tls:\n          insecure: true\n'),
    'http.middlewares.m.forwardAuth.tls.insecure is not a known key here'],
  ['an unknown key in ipStrategy', middleware('      ipAllowList:\n        sourceRange: [10.0.0.0/8]\n        ipStrategy:\n          deep: 1\n'),
    'http.middlewares.m.ipAllowList.ipStrategy.deep is not a known key here'],
  ['a TCP middleware the TCP section lacks', 'tcp:\n  middlewares:\n    m:\n      headers:\n        frameDeny: true\n', 'tcp.middlewares.m.headers is not a known key here'],
  ['an unknown key in a servers transport', 'http:\n  serversTransports:\n    t:\n      insecureSkipVerfy: true\n',
    'http.serversTransports.t.insecureSkipVerfy is not a known key here'],
  ['a certificate without its key file', 'tls:\n  certificates:\n    - certFile: /a.crt\n', 'tls.certificates[0].keyFile is missing'],
  ['an unknown key in TLS options', 'tls:\n  options:\n    modern:\n      minVersions: VersionTLS13\n', 'tls.options.modern.minVersions is not a known key here'],
  // Empty mappings, which the proxy refuses ("cannot be a standalone element").
  ['an empty http mapping', 'http: {}\n', 'http must not be an empty mapping'],
  ['an empty routers mapping', 'http:\n  routers: {}\n', 'http.routers must not be an empty mapping'],
  ['an empty middleware', middleware('      headers: {}\n'), 'http.middlewares.m.headers must not be an empty mapping'],
  // The top level, and YAML the proxy reads otherwise.
  ['a typo at the top level', 'htpp:\n  routers: {}\n', 'htpp is not a known key here'],
  ['a merge key naming text', 'http:\n  routers:\n    r:\n      <<: shared\n      rule: Host(`a.test`)\n      service: s\n',
    'http.routers.r.<< must be an alias of a mapping'],
  ['a merge key naming text where any key goes', middleware('      headers:\n        customRequestHeaders:\n          <<: [shared]\n'),
    'http.middlewares.m.headers.customRequestHeaders.<< must be an alias of a mapping'],
  ['an alias inside its own anchor', 'x-a: &a\n  b: *a\nhttp:\n  routers:\n    r: *a\n', 'x-a.b is an alias of a mapping that contains it'],
  ['a merge key bringing in services by name', 'x-s: &s\n  bank-def456-service:\n    loadBalancer:\n      servers: [{url: "http://evil"}]\nhttp:\n  services:\n    <<: *s\n',
    'http.services.<< must not be used here'],
  ['a merge key bringing in a whole section', 'x-h: &h\n  routers:\n    r:\n      rule: Host(`a.test`)\n      service: s\nhttp:\n  <<: *h\n', 'http.<< must not be used here'],
  ['a bad value reached through a merge key', 'x-defaults: &d\n  priority: high\nhttp:\n  routers:\n    r:\n      <<: *d\n      rule: Host(`a.test`)\n      service: s\n',
    'http.routers.r.priority must be an integer'],
];

// Examples in the manner of the proxy's documentation, and what its decoder accepts beyond them.
const ACCEPTED: readonly (readonly [string, string])[] = [
  ['the routers of the documentation', `http:
  routers:
    my-router:
      rule: "Host(\`example.com\`) && PathPrefix(\`/api\`)"
      ruleSyntax: v3
      entryPoints: [web, websecure]
      middlewares: [auth, strip@file]
      service: my-service
      priority: 10
      tls:
        certResolver: letsencrypt
        options: modern@file
        domains:
          - main: example.com
            sans: ["*.example.com"]
      observability:
        accessLogs: false
        tracing: true
    plain:
      rule: Host(\`plain.example.com\`)
      service: my-service
      tls: {}
`],
  ['a router whose tls is switched on with true (the decoder takes it as {})', router('      tls: true\n')],
  ['a priority written as text', router('      priority: "10"\n')],
  ['an HTTP load balancer with every part', service('http', `      loadBalancer:
        servers:
          - url: http://10.0.0.1:8080/
            weight: 2
          - url: http://10.0.0.2:8080/
            preservePath: true
        passHostHeader: false
        serversTransport: internal@file
        sticky:
          cookie:
            name: lb
            secure: true
            httpOnly: true
            sameSite: strict
            maxAge: 3600
        healthCheck:
          path: /health
          interval: 10s
          timeout: 3s
          port: 8081
          headers:
            X-Check: "1"
        responseForwarding:
          flushInterval: 100ms
`)],
  ['sticky sessions with the default cookie', service('http', '      loadBalancer:\n        sticky:\n          cookie: {}\n        servers:\n          - url: http://a\n')],
  ['weighted, mirroring and failover services', `http:
  services:
    canary:
      weighted:
        services:
          - name: app-v1
            weight: 3
          - name: app-v2
            weight: 1
        sticky:
          cookie:
            name: canary
        healthCheck: {}
    mirrored:
      mirroring:
        service: app-v1
        maxBodySize: 1024
        mirrors:
          - name: app-v2
            percent: 10
    safe:
      failover:
        service: main
        fallback: backup
`],
  ['the common middlewares', `http:
  middlewares:
    auth:
      basicAuth:
        users:
          - "test:$apr1$H6uskkkW$IgXLP6ewTrSuBkTrqE8wj/"
        removeHeader: true
    to-https:
      redirectScheme:
        scheme: https
        port: 443
        permanent: true
    www:
      redirectRegex:
        regex: "^https://www\\\\.(.*)"
        replacement: "https://\${1}"
    secure:
      headers:
        frameDeny: true
        browserXssFilter: true
        stsSeconds: 31536000
        stsIncludeSubdomains: true
        customRequestHeaders:
          X-Script-Name: test
          X-Removed: ""
        customResponseHeaders:
          X-Custom-Response-Header: value
        accessControlAllowMethods: [GET, OPTIONS, PUT]
        accessControlAllowOriginList: ["https://foo.bar.org"]
        accessControlMaxAge: 100
        addVaryHeader: true
    limit:
      rateLimit:
        average: 100
        period: 1m
        burst: 50
        sourceCriterion:
          ipStrategy:
            depth: 2
    office:
      ipAllowList:
        sourceRange: [127.0.0.1/32, 192.168.1.7]
        ipStrategy:
          excludedIPs: [127.0.0.1/32]
    legacy-office:
      ipWhiteList:
        sourceRange: [10.0.0.0/8]
    strip:
      stripPrefix:
        prefixes: [/foobar, /fiibar]
    strip-regex:
      stripPrefixRegex:
        regex: ["/foo/[a-z0-9]+/[0-9]+/"]
    prefix:
      addPrefix:
        prefix: /foo
    replace:
      replacePath:
        path: /foo
    replace-regex:
      replacePathRegex:
        regex: "^/foo/(.*)"
        replacement: "/bar/$1"
    zip:
      compress: {}
    zip-tuned:
      compress:
        excludedContentTypes: [text/event-stream]
        minResponseBodyBytes: 1200
    chained:
      chain:
        middlewares: [strip, zip]
    breaker:
      circuitBreaker:
        expression: "NetworkErrorRatio() > 0.30"
        checkPeriod: 100ms
        fallbackDuration: 10
    buffered:
      buffering:
        maxRequestBodyBytes: 2000000
        retryExpression: "IsNetworkError() && Attempts() < 2"
    errors-page:
      errors:
        status: ["500", "501", "503", "505-599"]
        service: error-handler
        query: "/{status}.html"
    forward:
      forwardAuth:
        address: https://auth.example.com/verify
        trustForwardHeader: true
        authResponseHeaders: [X-Auth-User, X-Secret]
        tls:
          insecureSkipVerify: true
    limited:
      inFlightReq:
        amount: 10
    client-cert:
      passTLSClientCert:
        pem: true
        info:
          notAfter: true
          subject:
            commonName: true
    retrying:
      retry:
        attempts: 4
        initialInterval: 100ms
    grpc:
      grpcWeb:
        allowOrigins: ["*"]
    digest:
      digestAuth:
        users: ["test:traefik:a2688e031edb4be6a3797f3882655c05"]
    sniff:
      contentType:
        autoDetect: false
    plugged:
      plugin:
        my-plugin:
          headers:
            Foo: Bar
          enabled: true
`],
  ['TCP routers, services and middlewares', `tcp:
  routers:
    db:
      entryPoints: [postgres]
      rule: HostSNI(\`db.example.com\`)
      service: db
      middlewares: [office]
      tls:
        passthrough: true
    any:
      rule: HostSNI(\`*\`)
      service: split
  services:
    db:
      loadBalancer:
        servers:
          - address: "10.0.0.5:5432"
            tls: false
        proxyProtocol:
          version: 2
        terminationDelay: 100
    split:
      weighted:
        services:
          - name: db
            weight: 1
  middlewares:
    office:
      ipAllowList:
        sourceRange: [10.0.0.0/8]
    few:
      inFlightConn:
        amount: 10
  serversTransports:
    tcp-t:
      dialTimeout: 30s
      tls:
        serverName: db.internal
        insecureSkipVerify: true
`],
  ['UDP routers and services', `udp:
  routers:
    dns:
      entryPoints: [dns]
      service: dns
  services:
    dns:
      loadBalancer:
        servers:
          - address: "10.0.0.53:53"
`],
  ['servers transports and the tls section', `http:
  serversTransports:
    internal:
      serverName: app.internal
      insecureSkipVerify: true
      rootCAs: [/certs/ca.crt]
      maxIdleConnsPerHost: 7
      forwardingTimeouts:
        dialTimeout: 1s
        idleConnTimeout: 90
tls:
  certificates:
    - certFile: /certs/a.crt
      keyFile: /certs/a.key
      stores: [default]
  options:
    default: {}
    modern:
      minVersion: VersionTLS13
      sniStrict: true
      cipherSuites: [TLS_AES_256_GCM_SHA384]
      clientAuth:
        caFiles: [/certs/ca.crt]
        clientAuthType: RequireAndVerifyClientCert
  stores:
    default:
      defaultCertificate:
        certFile: /certs/default.crt
        keyFile: /certs/default.key
`],
  ['merge keys within a section', 'http:\n  routers:\n    a:\n      <<: &c\n        entryPoints: [web]\n        service: s\n      rule: Host(`a.test`)\n    b:\n      <<: *c\n      rule: Host(`b.test`)\n'],
  ['merge keys from shared parts at the top', `x-common: &common
  entryPoints: [websecure]
  middlewares: [secure]
  tls: {}
x-service: &service
  service: s
http:
  routers:
    a:
      <<: [*common, *service]
      rule: Host(\`a.test\`)
`],
  ['an empty http section', 'http:\n'],
  ['an empty tls section', 'tls:\n'],
  ['empty sections of every kind', 'http:\ntcp:\nudp:\ntls:\n'],
  ['a section whose routers are left empty', 'http:\n  routers:\n  middlewares:\n    zip:\n      compress: true\n'],
  ['nothing at all', ''],
];

describe('the proxy configuration checker', () => {
  for (const [what, text, sentence] of REFUSED) {
    it(`refuses ${what}, naming the path`, () => {
      const error = refusal(text);
      assert.ok(error, `accepted:\n${text}`);
      assert.equal(error.code, 'BAD_REQUEST');
      assert.equal(error.issues[0]?.path, 'proxyConfig');
      assert.ok(error.message.includes(sentence), `${JSON.stringify(error.message)} does not include ${JSON.stringify(sentence)}`);
    });
  }
  for (const [what, text] of ACCEPTED) {
    it(`accepts ${what}`, () => assert.equal(refusal(text)?.message ?? null, null));
  }
});
