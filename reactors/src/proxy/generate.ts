// One application's dynamic configuration file for the proxy (file provider): Berth writes the
// service, the redirect and basic-auth middlewares and the TLS entries; everything else in the
// application's stored configuration (the routers a user wrote) is kept. Pure: hashes come in.
import { parse, stringify } from 'yaml';
import { join } from 'node:path';
import type { Redirect } from '@berth/shared/domain/redirect/redirect';

export interface ProxyInputs {
  readonly appName: string;
  /** What the user last saved with updateProxyConfig. */
  readonly userConfig: string | null;
  /** The first port record's target port; the proxy reaches the service on it. */
  readonly targetPort: number | null;
  readonly redirects: readonly Pick<Redirect, 'regex' | 'replacement' | 'permanent'>[];
  /** `username:hash` entries, hashed by the caller. */
  readonly users: readonly string[];
  /** Certificate folders, relative to the proxy's folder. */
  readonly certificatePaths: readonly string[];
  readonly proxyDir: string;
}

type Map = Record<string, unknown>;
const DEFAULT_PORT = 80;

export const serviceName = (appName: string) => `${appName}-service`;
const redirectName = (appName: string, index: number) => `${appName}-redirect-${index + 1}`;
const authName = (appName: string) => `${appName}-auth`;
/** The middlewares Berth owns in this application's file. */
const isOurs = (appName: string, name: string) =>
  name === authName(appName) || name.startsWith(`${appName}-redirect-`) || name === `${authName(appName)}@file`;

const mapOf = (value: unknown): Map => (value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Map) } : {});

function middlewaresOf(inputs: ProxyInputs): Map {
  const middlewares: Map = {};
  inputs.redirects.forEach((redirect, index) => {
    middlewares[redirectName(inputs.appName, index)] = {
      redirectRegex: { regex: redirect.regex, replacement: redirect.replacement, permanent: redirect.permanent },
    };
  });
  if (inputs.users.length > 0) middlewares[authName(inputs.appName)] = { basicAuth: { users: [...inputs.users], removeHeader: true } };
  return middlewares;
}

/** A router to this application's service uses Berth's middlewares, after the user's own. */
function withOurMiddlewares(router: unknown, inputs: ProxyInputs, ours: string[]): unknown {
  const entry = mapOf(router);
  const service = String(entry.service ?? '').replace(/@file$/, '');
  if (service !== serviceName(inputs.appName)) return router;
  const theirs = Array.isArray(entry.middlewares) ? entry.middlewares.filter((name) => !isOurs(inputs.appName, String(name))) : [];
  const middlewares = [...theirs, ...ours];
  const { middlewares: _dropped, ...rest } = entry;
  return middlewares.length > 0 ? { ...rest, middlewares } : rest;
}

export function proxyFileOf(inputs: ProxyInputs): string {
  const config = mapOf(inputs.userConfig ? parse(inputs.userConfig) : {});
  const http = mapOf(config.http);
  const ours = middlewaresOf(inputs);
  const middlewares = Object.fromEntries(Object.entries(mapOf(http.middlewares)).filter(([name]) => !isOurs(inputs.appName, name)));
  Object.assign(middlewares, ours);
  const routers = Object.fromEntries(Object.entries(mapOf(http.routers))
    .map(([name, router]) => [name, withOurMiddlewares(router, inputs, Object.keys(ours))]));
  const services = {
    ...mapOf(http.services),
    [serviceName(inputs.appName)]: {
      loadBalancer: { servers: [{ url: `http://${inputs.appName}:${inputs.targetPort ?? DEFAULT_PORT}` }], passHostHeader: true },
    },
  };
  const file: Map = {
    ...config,
    http: {
      ...http,
      ...(Object.keys(routers).length > 0 && { routers }),
      ...(Object.keys(middlewares).length > 0 ? { middlewares } : { middlewares: undefined }),
      services,
    },
  };
  const certificates = inputs.certificatePaths.map((path) => ({
    certFile: join(inputs.proxyDir, path, 'chain.crt'), keyFile: join(inputs.proxyDir, path, 'privkey.key'),
  }));
  const tls = { ...mapOf(config.tls), certificates: certificates.length > 0 ? certificates : undefined };
  file.tls = Object.values(tls).some((value) => value !== undefined) ? tls : undefined;
  return `# The proxy's dynamic configuration of ${inputs.appName}, written by Berth.\n${stringify(file)}`;
}
