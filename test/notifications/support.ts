// What the notification tests share: a local receiver, a Berth whose reactors notify, its admin,
// and subscriptions written straight into the log (as one saved before a rule existed).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { subscriptionAggregate } from '@berth/shared/domain/notification/subscription';
import { execute } from '@berth/shared/runtime/execute';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, httpClient, listeningBerth, type HttpClient, type ListeningBerth } from '../support/http.ts';
import { eventually, startRole, type RoleProcess } from '../support/role-process.ts';

export interface Receiver {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

/** A loopback HTTP server that hands each request, its body read, to `answer`. */
export async function startReceiver(answer: (request: IncomingMessage, body: string, response: ServerResponse) => void): Promise<Receiver> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => answer(request, body, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A listening Berth with the relay and the reactors, retrying after `notifyRetryMs`. */
export const notifyingBerth = (notifyRetryMs: number[]): Promise<ListeningBerth> =>
  listeningBerth({ config: { roles: ['api', 'projections', 'relay', 'reactors'], notifyRetryMs, notifyTimeoutMs: 500 } });

/** Creates the admin with the setup token and signs the client in as it. */
export async function signInAdmin(server: ListeningBerth, admin: { email: string; password: string }): Promise<HttpClient> {
  const api = server.client;
  api.token = server.setupToken();
  await api.ok('auth.createAdmin', admin);
  api.token = (await api.ok('auth.login', admin)).token;
  return api;
}

/** A subscription appended to the log past the API's checks, once the read models show it. */
export async function subscribeInLog(server: ListeningBerth, url: string, eventTypes: string[]): Promise<string> {
  const { eventStore, readStore, secrets } = server.berth.infrastructure;
  const subscriptionId = randomUUID();
  const now = new Date().toISOString();
  await execute(eventStore, subscriptionAggregate, subscriptionId, {
    type: 'CreateSubscription', data: { subscriptionId, url, eventTypes, secret: secrets.seal('a receiver secret in the log'), createdAt: now },
  }, { actorId: null, correlationId: `subscribe-${subscriptionId}`, causationId: null, occurredAt: now });
  while (!(await readStore.get('subscription', subscriptionId))) await new Promise((resolve) => setTimeout(resolve, 20));
  return subscriptionId;
}

/**
 * `berth start` as a process on a data folder of its own, which a test kills (-9) and starts again
 * on the same folder: `start` answers once it is ready; `signIn` makes the admin and signs in.
 * Every process it starts is killed by the `cleanups` the test runs after.
 */
export async function killableBerth(env: Record<string, string>, cleanups: Array<() => Promise<unknown>>, prefix: string) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const all = { BERTH_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), BERTH_LOG_LEVEL: 'silent', BERTH_SQLITE_SYNCHRONOUS: 'NORMAL', ...env };
  const start = async (): Promise<RoleProcess> => {
    const process = startRole('start', all);
    cleanups.push(async () => { process.child.kill('SIGKILL'); await process.exited; });
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/ready`)).status === 200, 60_000, 'berth start to be ready')
      .catch((error: Error) => { throw new Error(`${error.message}\n${process.output.join('')}`); });
    return process;
  };
  const signIn = async (admin: { email: string; password: string }): Promise<HttpClient> => {
    const api = httpClient(`http://127.0.0.1:${port}`);
    api.token = readFileSync(join(dataDir, 'setup-token'), 'utf8').trim();
    await api.ok('auth.createAdmin', admin);
    api.token = (await api.ok('auth.login', admin)).token;
    return api;
  };
  return { dataDir, start, signIn };
}
