// What the notification tests share: a local receiver, a Berth whose reactors notify, its admin,
// and subscriptions written straight into the log (as one saved before a rule existed).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { subscriptionAggregate } from '@berth/shared/domain/notification/subscription';
import { execute } from '@berth/shared/runtime/execute';
import { listeningBerth, type HttpClient, type ListeningBerth } from '../support/http.ts';

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
