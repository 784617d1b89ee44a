// A real nats-server with JetStream on a free loopback port and its own store folder, for the
// bus tests; restartable on the same port and store, as an operator's restart would be.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './http.ts';

export interface NatsServer {
  readonly url: string;
  restart(): Promise<void>;
  /** Stops the server, keeping its store, until `up()` (an outage). */
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

const reachable = (port: number) => new Promise<boolean>((resolve) => {
  const socket = connect(port, '127.0.0.1');
  socket.once('connect', () => { socket.destroy(); resolve(true); });
  socket.once('error', () => resolve(false));
});

async function waitUntil(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startNats(): Promise<NatsServer> {
  const port = await freePort();
  const store = mkdtempSync(join(tmpdir(), 'berth-nats-'));
  let child: ChildProcess | null = null;
  const up = async () => {
    child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], { stdio: 'ignore' });
    await waitUntil(() => reachable(port), 'nats-server did not listen');
  };
  const down = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await up();
  return {
    url: `nats://127.0.0.1:${port}`,
    restart: async () => { await down(); await up(); },
    down,
    up,
    stop: async () => { await down(); rmSync(store, { recursive: true, force: true }); },
  };
}
