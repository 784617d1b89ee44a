// One application's dynamic configuration file for the proxy (file provider): Berth writes the
// service, the redirect and basic-auth middlewares and the TLS entries; everything else in the
// application's stored configuration (the routers a user wrote) is kept, re-pointed to the
// current names after a rename. Pure: hashes come in.
import { parse, stringify } from 'yaml';
import type { Redirect } from '@berth/shared/domain/redirect/redirect';
import { authName, isBerthMiddlewareName, redirectName, serviceName } from '@berth/shared/domain/application/proxy-names';
import { certificateFilesOf } from './certificate-files.ts';
import { currentName } from './names.ts';
import { numberedIn, numberedLine, renumbered, type Numbered, type Used } from './numbered-redirects.ts';

export interface ProxyInputs {
  readonly applicationId: string;
  readonly appName: string;
  /** The names the application had before (oldest first), without the current one. */
  readonly formerAppNames: readonly string[];
  /** What the user last saved with updateProxyConfig. */
  readonly userConfig: string | null;
  /** The first TCP port record's target port; the proxy reaches the service on it. */
  readonly targetPort: number | null;
  readonly redirects: readonly Pick<Redirect, 'redirectId' | 'regex' | 'replacement' | 'permanent'>[];
  /** `username:hash` entries, hashed by the caller. */
  readonly users: readonly string[];
  /** Certificate folders, relative to the proxy's folder. */
  readonly certificatePaths: readonly string[];
  readonly proxyDir: string;
  /** The file as Berth last wrote it: it tells which redirect a former numbered name named. */
  readonly previousFile: string | null;
}

type Mapping = Record<string, unknown>;
const DEFAULT_PORT = 80;

const mapOf = (value: unknown): Mapping => (value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Mapping) } : {});

function middlewaresOf(inputs: ProxyInputs): Mapping {
  const middlewares: Mapping = {};
  for (const redirect of inputs.redirects) {
    middlewares[redirectName(inputs.appName, redirect.redirectId)] = {
      redirectRegex: { regex: redirect.regex, replacement: redirect.replacement, permanent: redirect.permanent },
    };
  }
  if (inputs.users.length > 0) middlewares[authName(inputs.appName)] = { basicAuth: { users: [...inputs.users], removeHeader: true } };
  return middlewares;
}

/** A map whose keys Berth gave under a former appName carry the current one. */
const withCurrentKeys = (value: unknown, inputs: ProxyInputs): Mapping =>
  Object.fromEntries(Object.entries(mapOf(value)).map(([name, entry]) => [currentName(name, inputs.appName, inputs.formerAppNames), entry]));

/**
 * A router naming Berth's service or middlewares under a former appName names the current ones; one
 * naming a redirect middleware by its former number names it by its redirect's id (noted in `used`).
 */
function repointed(router: unknown, inputs: ProxyInputs, numbered: Numbered, used: Used): unknown {
  if (!router || typeof router !== 'object' || Array.isArray(router)) return router;
  const entry = mapOf(router);
  const current = (name: unknown) => (typeof name === 'string'
    ? renumbered(currentName(name, inputs.appName, inputs.formerAppNames), inputs.appName, numbered, used) : name);
  if (entry.service !== undefined) entry.service = current(entry.service);
  if (Array.isArray(entry.middlewares)) entry.middlewares = entry.middlewares.map(current);
  return entry;
}

/** A router to this application's service uses Berth's middlewares, after the user's own. */
function withOurMiddlewares(router: unknown, inputs: ProxyInputs, ours: string[]): unknown {
  const entry = mapOf(router);
  const service = String(entry.service ?? '').replace(/@file$/, '');
  if (service !== serviceName(inputs.appName)) return router;
  const theirs = Array.isArray(entry.middlewares) ? entry.middlewares.filter((name) => !isBerthMiddlewareName(inputs.appName, String(name))) : [];
  const middlewares = [...theirs, ...ours];
  const { middlewares: _dropped, ...rest } = entry;
  return middlewares.length > 0 ? { ...rest, middlewares } : rest;
}

/** The file's first line names the application it belongs to (its id: a name can change hands). */
const headerOf = (inputs: Pick<ProxyInputs, 'appName' | 'applicationId'>) =>
  `# The proxy's dynamic configuration of ${inputs.appName} (application ${inputs.applicationId}), written by Berth.`;

const OWNER = /\(application (\S+)\), written by Berth\.$/;
/** The application a proxy file was written for; null for one written before files named it. */
export const ownerOf = (text: string): string | null => OWNER.exec(text.split('\n', 1)[0] ?? '')?.[1] ?? null;

/**
 * The user's certificates first, then Berth's: updateProxyConfig accepted the user's, so the file
 * must hold them. A user's entry naming the files of another before it, or of one of Berth's (saved
 * back from a file Berth wrote), is left out; Berth's are one per certificate record, as before.
 */
function certificatesOf(tls: unknown, inputs: ProxyInputs): unknown[] {
  const theirs: unknown[] = Array.isArray(mapOf(tls).certificates) ? mapOf(tls).certificates as unknown[] : [];
  const ours = inputs.certificatePaths.map((path) => certificateFilesOf(inputs.proxyDir, path));
  const keyOf = (certificate: unknown) => {
    const { certFile, keyFile } = mapOf(certificate);
    return JSON.stringify([certFile, keyFile]);
  };
  const seen = new Set(ours.map(keyOf));
  const kept = theirs.filter((certificate) => {
    const key = keyOf(certificate);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return [...kept, ...ours];
}

export function proxyFileOf(inputs: ProxyInputs): string {
  // Merge keys resolved as the proxy resolves them, so a router that takes Berth's service through
  // one (`<<: *common`) gets Berth's middlewares as any other.
  const config = mapOf(inputs.userConfig ? parse(inputs.userConfig, { merge: true }) : {});
  const http = mapOf(config.http);
  const ours = middlewaresOf(inputs);
  const middlewares = Object.fromEntries(Object.entries(withCurrentKeys(http.middlewares, inputs))
    .filter(([name]) => !isBerthMiddlewareName(inputs.appName, name)));
  Object.assign(middlewares, ours);
  const numbered = numberedIn(inputs.previousFile, inputs.appName, inputs.formerAppNames, inputs.redirects);
  const used: Used = new Map();
  const routers = Object.fromEntries(Object.entries(mapOf(http.routers))
    .map(([name, router]) => [name, withOurMiddlewares(repointed(router, inputs, numbered, used), inputs, Object.keys(ours))]));
  const services = {
    ...withCurrentKeys(http.services, inputs),
    [serviceName(inputs.appName)]: {
      loadBalancer: { servers: [{ url: `http://${inputs.appName}:${inputs.targetPort ?? DEFAULT_PORT}` }], passHostHeader: true },
    },
  };
  const file: Mapping = {
    ...config,
    http: {
      ...http,
      ...(Object.keys(routers).length > 0 && { routers }),
      ...(Object.keys(middlewares).length > 0 ? { middlewares } : { middlewares: undefined }),
      services,
    },
  };
  const certificates = certificatesOf(config.tls, inputs);
  const tls = { ...mapOf(config.tls), certificates: certificates.length > 0 ? certificates : undefined };
  file.tls = Object.values(tls).some((value) => value !== undefined) ? tls : undefined;
  return `${headerOf(inputs)}\n${numberedLine(used)}${stringify(file)}`;
}
