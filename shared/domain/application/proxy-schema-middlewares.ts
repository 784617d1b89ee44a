// The proxy's middlewares, each kind with its known keys and their types (v2 and v3, so both
// ipWhiteList and its successor ipAllowList). A middleware holds exactly one kind.
import { anything, boolean, duration, fields, integer, namedEntries, text } from './proxy-schema-checks.ts';
import { texts } from './proxy-schema-parts.ts';

const IP_STRATEGY = { depth: integer, excludedIPs: texts, ipv6Subnet: integer };
const sourceCriterion = fields({ ipStrategy: fields(IP_STRATEGY), requestHeaderName: text, requestHost: boolean });
// Here `ipStrategy: {}` reads the client's address from X-Forwarded-For.
const ipAllowList = fields({ sourceRange: texts, ipStrategy: fields(IP_STRATEGY, { orSwitch: true }), rejectStatusCode: integer });
const auth = fields({ users: texts, usersFile: text, realm: text, removeHeader: boolean, headerField: text });
const headerValues = namedEntries(text, 'header values');
const distinguishedName = fields(Object.fromEntries(
  ['country', 'province', 'locality', 'organization', 'organizationalUnit', 'commonName', 'serialNumber', 'domainComponent'].map((key) => [key, boolean]),
));

const headers = fields({
  customRequestHeaders: headerValues, customResponseHeaders: headerValues, sslProxyHeaders: headerValues,
  accessControlAllowCredentials: boolean, accessControlAllowHeaders: texts, accessControlAllowMethods: texts,
  accessControlAllowOrigin: text, accessControlAllowOriginList: texts, accessControlAllowOriginListRegex: texts,
  accessControlExposeHeaders: texts, accessControlMaxAge: integer, addVaryHeader: boolean,
  allowedHosts: texts, hostsProxyHeaders: texts, stsSeconds: integer, stsIncludeSubdomains: boolean, stsPreload: boolean,
  forceSTSHeader: boolean, frameDeny: boolean, customFrameOptionsValue: text, contentTypeNosniff: boolean,
  browserXssFilter: boolean, customBrowserXSSValue: text, contentSecurityPolicy: text, contentSecurityPolicyReportOnly: text,
  publicKey: text, referrerPolicy: text, permissionsPolicy: text, featurePolicy: text, isDevelopment: boolean,
  sslRedirect: boolean, sslTemporaryRedirect: boolean, sslHost: text, sslForceHost: boolean,
});

const forwardAuth = fields({
  address: text,
  tls: fields({ ca: text, cert: text, key: text, insecureSkipVerify: boolean, caOptional: boolean }),
  trustForwardHeader: boolean, authResponseHeaders: texts, authResponseHeadersRegex: text, authRequestHeaders: texts,
  addAuthCookiesToResponse: texts, headerField: text, forwardBody: boolean, maxBodySize: integer,
  preserveLocationHeader: boolean, preserveRequestMethod: boolean,
}, { required: ['address'] });

const HTTP_KINDS = {
  addPrefix: fields({ prefix: text }, { required: ['prefix'] }),
  basicAuth: auth,
  digestAuth: auth,
  buffering: fields({
    maxRequestBodyBytes: integer, memRequestBodyBytes: integer, maxResponseBodyBytes: integer, memResponseBodyBytes: integer, retryExpression: text,
  }),
  chain: fields({ middlewares: texts }, { required: ['middlewares'] }),
  circuitBreaker: fields({ expression: text, checkPeriod: duration, fallbackDuration: duration, recoveryDuration: duration, responseCode: integer },
    { required: ['expression'] }),
  compress: fields({ excludedContentTypes: texts, includedContentTypes: texts, minResponseBodyBytes: integer, encodings: texts, defaultEncoding: text },
    { orSwitch: true }),
  contentType: fields({ autoDetect: boolean }, { orSwitch: true }),
  // Newer than most: its keys are taken as they come rather than refusing a valid configuration.
  encodedCharacters: namedEntries(anything, 'settings'),
  errors: fields({ status: texts, statusRewrites: namedEntries(integer, 'status codes'), service: text, query: text }, { required: ['status', 'service'] }),
  forwardAuth,
  grpcWeb: fields({ allowOrigins: texts }),
  headers,
  ipAllowList,
  ipWhiteList: ipAllowList,
  inFlightReq: fields({ amount: integer, sourceCriterion }, { required: ['amount'] }),
  passTLSClientCert: fields({
    pem: boolean,
    info: fields({ notAfter: boolean, notBefore: boolean, sans: boolean, serialNumber: boolean, subject: distinguishedName, issuer: distinguishedName }),
  }),
  plugin: namedEntries(anything, 'plugin settings'),
  rateLimit: fields({ average: integer, period: duration, burst: integer, sourceCriterion, redis: anything }),
  redirectRegex: fields({ regex: text, replacement: text, permanent: boolean }, { required: ['regex', 'replacement'] }),
  redirectScheme: fields({ scheme: text, port: text, permanent: boolean }),
  replacePath: fields({ path: text }, { required: ['path'] }),
  replacePathRegex: fields({ regex: text, replacement: text }, { required: ['regex', 'replacement'] }),
  retry: fields({ attempts: integer, initialInterval: duration }, { required: ['attempts'] }),
  stripPrefix: fields({ prefixes: texts, forceSlash: boolean }, { required: ['prefixes'] }),
  stripPrefixRegex: fields({ regex: texts }, { required: ['regex'] }),
};

export const httpMiddleware = fields(HTTP_KINDS, { oneKind: true });

const tcpIpAllowList = fields({ sourceRange: texts }, { required: ['sourceRange'] });
export const tcpMiddleware = fields({
  ipAllowList: tcpIpAllowList,
  ipWhiteList: tcpIpAllowList,
  inFlightConn: fields({ amount: integer }, { required: ['amount'] }),
}, { oneKind: true });
