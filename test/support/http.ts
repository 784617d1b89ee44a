// A real Berth listening on a loopback port, and a real HTTP client (global fetch) to drive it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { operations } from '@berth/shared/contract/index';
import { configFrom, type Config } from '@berth/shared/runtime/config';
import { launch, type Berth } from '@berth/shared/runtime/launch';

const GET_OPERATIONS = new Set(operations.filter((op) => op.method === 'GET').map((op) => op.name));

/** A port nobody listens on right now (launch does not report the port it got for 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Reply<T = any> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

export interface HttpClient {
  readonly baseUrl: string;
  /** Bearer token sent by `call` and `ok` unless told otherwise. */
  token: string | null;
  /** An operation by name: GET with a query, POST with a JSON body. */
  call<T = any>(operation: string, input?: Record<string, unknown>, options?: { token?: string | null }): Promise<Reply<T>>;
  /** Calls and expects 200, answering the body. */
  ok<T = any>(operation: string, input?: Record<string, unknown>): Promise<T>;
  /** Any request at a path, for the cases the contract does not describe. */
  raw(path: string, init?: RequestInit): Promise<Reply>;
}

async function replyOf(response: Response): Promise<Reply> {
  const text = await response.text();
  let body: unknown = text;
  try { body = text ? JSON.parse(text) : null; } catch { /* not JSON: keep the text */ }
  return { status: response.status, body, headers: response.headers };
}

export function httpClient(baseUrl: string): HttpClient {
  const client: HttpClient = {
    baseUrl,
    token: null,
    async call(operation, input = {}, options = {}) {
      const token = options.token === undefined ? client.token : options.token;
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      const prefix = operation.startsWith('admin.') ? '' : '/api';
      if (GET_OPERATIONS.has(operation)) {
        const query = new URLSearchParams(Object.entries(input).map(([key, value]): [string, string] => [key, String(value)]));
        const search = query.toString() ? `?${query}` : '';
        return replyOf(await fetch(`${baseUrl}${prefix}/${operation}${search}`, { headers }));
      }
      return replyOf(await fetch(`${baseUrl}${prefix}/${operation}`, {
        method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(input),
      }));
    },
    async ok(operation, input) {
      const reply = await client.call(operation, input);
      if (reply.status !== 200) throw new Error(`${operation} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
      return reply.body;
    },
    raw: async (path, init) => replyOf(await fetch(`${baseUrl}${path}`, init)),
  };
  return client;
}

export interface ListeningBerth {
  readonly berth: Berth;
  readonly dataDir: string;
  readonly baseUrl: string;
  readonly client: HttpClient;
  /** The one-time setup token Berth saved in its data folder. */
  setupToken(): string;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/** Berth as an operator runs it (`launch`), roles api and projections, on a loopback port. */
/** Makes `server`'s first admin with its setup token and signs it in: its client then acts as that admin. */
export async function signInFirstAdmin(server: ListeningBerth, admin: { email: string; password: string }): Promise<HttpClient> {
  const api = server.client;
  api.token = server.setupToken();
  await api.ok('auth.createAdmin', admin);
  api.token = (await api.call('auth.login', admin, { token: null })).body.token;
  return api;
}

export async function listeningBerth(options: { dataDir?: string; config?: Partial<Config> } = {}): Promise<ListeningBerth> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'berth-http-'));
  const port = await freePort();
  const config = configFrom({}, {
    dataDir, host: '127.0.0.1', port, roles: ['api', 'projections'], logLevel: 'silent', ...options.config,
  });
  const logged = console.log;
  console.log = () => {}; // the api role prints the setup token; the test reads it from the file
  let berth: Berth;
  try {
    berth = await launch(config);
  } finally {
    console.log = logged;
  }
  const baseUrl = `http://127.0.0.1:${config.port}`;
  return {
    berth, dataDir, baseUrl,
    client: httpClient(baseUrl),
    setupToken: () => readFileSync(join(dataDir, 'setup-token'), 'utf8').trim(),
    async stop({ keepData = false } = {}) {
      await berth.stop();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
