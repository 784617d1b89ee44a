// Where the container engine listens, read from BERTH_ENGINE_SOCKET: apart from the client (engine.ts),
// which loads dockerode, so that reading the configuration does not.

/** Where the container engine listens, as its client (dockerode) takes it. */
export type EngineAddress =
  | { readonly socketPath: string }
  | { readonly protocol: 'http' | 'https'; readonly host: string; readonly port: number };

const ENGINE_FORMS = 'an absolute socket path, unix://<path>, tcp://<host>:<port> or http(s)://<host>:<port>';
/** Without a port: Docker's own for tcp://, the URL's for http(s)://. */
const ENGINE_PORTS = { tcp: 2375, http: 80, https: 443 } as const;
const isEngineScheme = (scheme: string): scheme is keyof typeof ENGINE_PORTS => Object.hasOwn(ENGINE_PORTS, scheme);

/**
 * BERTH_ENGINE_SOCKET in each form the engine's own tools take it (DOCKER_HOST's `unix://` and
 * `tcp://`), or Berth's bare path and http(s) URL: the one parser of it, for the engine's client and
 * the compose tool's DOCKER_HOST alike. Anything else is refused: read as a path it was a socket
 * that never answered.
 */
export function engineAddress(text: string, variable = 'BERTH_ENGINE_SOCKET'): EngineAddress {
  const refused = () => new Error(`${variable} must be ${ENGINE_FORMS} (got "${text}")`);
  if (text.startsWith('/')) return { socketPath: text };
  if (text.startsWith('unix://')) {
    const socketPath = text.slice('unix://'.length);
    if (!socketPath.startsWith('/')) throw refused();
    return { socketPath };
  }
  const url = URL.canParse(text) ? new URL(text) : undefined;
  const scheme = url?.protocol.replace(/:$/, '') ?? '';
  if (!url?.hostname || !isEngineScheme(scheme)) throw refused();
  // An IPv6 address without the brackets a URL needs around it.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { protocol: scheme === 'https' ? 'https' : 'http', host, port: url.port ? Number(url.port) : ENGINE_PORTS[scheme] };
}
