// A whole Berth as its own process (`berth start`, the real engine behind it) that a test kills with
// SIGKILL while a deployment runs, then starts again on the same data folder: a crash and a restart.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, httpClient, type HttpClient } from '../support/http.ts';
import { eventually, startRole, type RoleProcess } from '../support/role-process.ts';

const ADMIN = { email: 'crash@berth.test', password: 'a long enough password' };

export interface CrashingBerth {
  readonly api: HttpClient;
  /** Starts Berth (again) on the data folder and waits until it is ready. */
  start(): Promise<void>;
  /** SIGKILL: nothing is stopped cleanly, no deployment is told. */
  kill(): Promise<void>;
  /** Kills the process and removes the data folder. */
  close(): Promise<void>;
}

export async function crashingBerth(env: Record<string, string> = {}): Promise<CrashingBerth> {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-crash-'));
  const port = await freePort();
  const api = httpClient(`http://127.0.0.1:${port}`);
  let running: RoleProcess | null = null;
  const berth: CrashingBerth = {
    api,
    async start() {
      const started = startRole('start', {
        BERTH_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), BERTH_LOG_LEVEL: 'silent', BERTH_SQLITE_SYNCHRONOUS: 'NORMAL', ...env,
      });
      running = started;
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/ready`)).status === 200, 60_000, 'berth start to be ready')
        .catch((error: Error) => { throw new Error(`${error.message}\n${started.output.join('')}`); });
      if (api.token === null) {
        api.token = readFileSync(join(dataDir, 'setup-token'), 'utf8').trim();
        await api.ok('auth.createAdmin', ADMIN);
        api.token = (await api.ok('auth.login', ADMIN)).token;
      }
    },
    async kill() {
      const killed = running;
      running = null;
      if (!killed) return;
      killed.child.kill('SIGKILL');
      await killed.exited;
    },
    async close() {
      await berth.kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return berth;
}

/** Another process holding a host port (on every address, as a published port would): a task publishing it can never start. */
export async function holdPort(): Promise<{ port: number; server: Server }> {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '0.0.0.0', resolve));
  return { port, server };
}

/** Polls the deployment (through the API) until `done` holds for it. */
export async function deploymentWhen(api: HttpClient, deploymentId: string, done: (deployment: any) => boolean, what: string, ms = 60_000) {
  let last: unknown = null;
  return eventually(async () => {
    last = await api.ok('deployment.one', { deploymentId });
    return done(last) ? last as any : undefined;
  }, ms, what).catch((error: Error) => { throw new Error(`${error.message}: ${JSON.stringify(last)}`); });
}
