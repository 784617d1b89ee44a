// A scaled-out Berth whose roles are separate processes, on EventStoreDB (the gRPC test server),
// MongoDB (the stand-in behind a TCP proxy that can take it away, or MONGO_URL) and a real
// nats-server: what the process tests start once and share.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreDbTestServer } from '../support/eventstoredb-server.ts';
import { freePort, httpClient, type HttpClient } from '../support/http.ts';
import { freshDatabase, startMongo, type TestMongo } from '../support/mongo.ts';
import { startNats, type NatsServer } from '../support/nats.ts';
import { eventually, startRole, type RoleProcess } from '../support/role-process.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { ADMIN } from '../support/berth.ts';

export interface Stack {
  readonly eventStore: EventStoreDbTestServer;
  readonly nats: NatsServer;
  /** In front of MongoDB: `cut()` is an outage of the read store. */
  readonly mongoProxy: TcpProxy;
  /** The read store's URL, through the proxy. */
  readonly mongoUrl: string;
  readonly dataDir: string;
  readonly processes: RoleProcess[];
  role(name: string, extra?: Record<string, string>): RoleProcess;
  /** Starts API processes, waits until they answer, creates the admin and logs each in. */
  apis(count: number): Promise<HttpClient[]>;
  /** Every process's output, to explain a failure. */
  output(): string;
  stop(): Promise<void>;
}

export const said = (process: RoleProcess, line: string) => async () => process.output.join('').includes(line);

export async function startStack(extraEnv: Record<string, string> = {}): Promise<Stack> {
  let mongo: TestMongo;
  const [eventStore, nats] = await Promise.all([new EventStoreDbTestServer().start(), startNats(), (async () => { mongo = await startMongo(); })()]);
  const server = new URL(mongo!.url);
  const mongoProxy = await startTcpProxy({ host: server.hostname, port: Number(server.port) });
  const mongoUrl = `mongodb://${mongoProxy.address}/${freshDatabase()}?directConnection=true`;
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-stack-'));
  const env = {
    BERTH_EVENTSTORE_URL: eventStore.url, BERTH_MONGO_URL: mongoUrl, BERTH_NATS_URL: nats.url,
    BERTH_DATA_DIR: dataDir, BERTH_INSTANCE_KEY: randomBytes(32).toString('base64'), BERTH_LEASE_TTL_MS: '1500',
    HOST: '127.0.0.1', ...extraEnv,
  };
  const processes: RoleProcess[] = [];
  const output = () => processes.map((process) => process.output.join('')).join('\n---\n');
  const role = (name: string, extra: Record<string, string> = {}) => {
    const started = startRole(name, { ...env, ...extra });
    processes.push(started);
    return started;
  };
  return {
    eventStore, nats, mongoProxy, mongoUrl, dataDir, processes, role, output,
    async apis(count) {
      const clients: HttpClient[] = [];
      for (let i = 0; i < count; i++) {
        const port = await freePort();
        role('api', { PORT: String(port) });
        clients.push(httpClient(`http://127.0.0.1:${port}`));
      }
      // Generous: on a loaded two-core machine, a process that compiles Berth on start is slow to listen.
      // Polled at /health: failed sign-ins would count against the address's attempts.
      await eventually(async () => (await Promise.all(clients.map(async (api) => (await api.raw('/health')).status === 200)))
        .every(Boolean), 120_000, 'the API processes answer').catch((error: Error) => {
        throw new Error(`${error.message}; their output:\n${output()}`);
      });
      const setup = readFileSync(join(dataDir, 'setup-token'), 'utf8').trim();
      const created = await clients[0]!.call('auth.createAdmin', ADMIN, { token: setup });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      for (const api of clients) api.token = (await api.ok('auth.login', ADMIN)).token;
      return clients;
    },
    async stop() {
      for (const { child } of processes) if (child.exitCode === null) child.kill('SIGKILL');
      await Promise.all(processes.map(({ exited }) => exited));
      await Promise.all([eventStore.stop(), mongo!.stop(), nats.stop(), mongoProxy.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
