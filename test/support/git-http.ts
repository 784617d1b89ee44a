// Git's smart HTTP transport, for real: `git http-backend` (CGI) behind a tiny node server that asks
// for basic auth and lets `allows(user, password)` decide, so a wrong or missing credential really
// fails the clone. Repositories are served at `/<owner>/<name>.git` from their working folders.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface GitHttpServer {
  readonly baseUrl: string;
  /** Clones of each repository served, counted (a refused one is not counted). */
  readonly clones: Map<string, number>;
  stop(): Promise<void>;
}

function credentials(request: IncomingMessage): [string, string] | null {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return null;
  const text = Buffer.from(header.slice(6), 'base64').toString();
  const colon = text.indexOf(':');
  return colon < 0 ? null : [text.slice(0, colon), text.slice(colon + 1)];
}

function cgi(dir: string, pathInfo: string, request: IncomingMessage, response: ServerResponse, user: string): void {
  const url = new URL(request.url ?? '/', 'http://git');
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH, GIT_PROJECT_ROOT: dir, GIT_HTTP_EXPORT_ALL: '1', PATH_INFO: `/.git${pathInfo}`,
      QUERY_STRING: url.search.slice(1), REQUEST_METHOD: request.method ?? 'GET', REMOTE_USER: user, REMOTE_ADDR: '127.0.0.1',
      CONTENT_TYPE: request.headers['content-type'] ?? '', HTTP_CONTENT_ENCODING: request.headers['content-encoding'] ?? '',
      GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
    },
  });
  request.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headDone = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headDone) { response.write(chunk); return; }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    headDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString().split('\r\n')) {
      const [name, ...rest] = line.split(':');
      const value = rest.join(':').trim();
      if (name!.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else response.setHeader(name!, value);
    }
    response.writeHead(status);
    response.write(head.subarray(end + 4));
  });
  child.on('close', () => response.end());
}

/** With `tls`, served over https at `localhost` (the certificate's name; git must trust it). */
export async function gitHttpServer(repos: Record<string, string>, allows: (user: string, password: string) => boolean,
  tls?: { cert: string; key: string }): Promise<GitHttpServer> {
  const clones = new Map<string, number>();
  const listener: RequestListener = (request, response) => {
    const match = /^\/([^/]+\/[^/]+)\.git(\/[^?]*)/.exec(request.url ?? '');
    const dir = match ? repos[match[1]!] : undefined;
    if (!match || !dir) { response.writeHead(404).end('no such repository'); return; }
    const given = credentials(request);
    if (!given || !allows(given[0], given[1])) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('authentication required');
      return;
    }
    if (match[2] === '/info/refs') clones.set(match[1]!, (clones.get(match[1]!) ?? 0) + 1);
    cgi(dir, match[2]!, request, response, given[0]);
  };
  const server = tls ? createTlsServer(tls, listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`,
    clones,
    stop: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
