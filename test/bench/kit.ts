// What every load of the benchmark shares: a server started as operators start Berth (from this
// checkout, or another one to compare with), the load generator, and the prepared admin and projects.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { freePort } from '../support/http.ts';
import type { GcPauses, ServerMessage, Stalls } from './server.ts';

export const CONNECTIONS = 50;
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const POOL = 1000;
const THIS_CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));

export interface Server {
  readonly url: string;
  readonly dataDir: string | null;
  memory(): Promise<{ rss: number; heapUsed: number; cpuMs: number; busyMs: number; gc: GcPauses; stalls: Stalls }>;
  stop(): Promise<void>;
}

/**
 * `mode` served by a process of `checkout` (this one unless another is named, to compare two
 * versions), with `env` laid over this process's environment.
 */
export async function startServer(
  mode: 'berth' | 'berth-all' | 'ceiling' | 'log-ceiling', { checkout = THIS_CHECKOUT, env = {} }: { checkout?: string; env?: Record<string, string> } = {},
): Promise<Server> {
  const port = await freePort();
  // Through the same start script as `pnpm start`, so Berth runs with the settings users get.
  const profile = process.env.BENCH_PROFILE ? `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE}` : '';
  const child: ChildProcess = spawn('bash', [join(checkout, 'shared/runtime/start.sh'), join(checkout, 'test/bench/server.ts'), mode, String(port)], {
    env: { ...process.env, ...env, BERTH_NODE_FLAGS: `${env.BERTH_NODE_FLAGS ?? process.env.BERTH_NODE_FLAGS ?? ''} ${profile}` },
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit', 'ipc'],
  });
  const next = (type: ServerMessage['type']) => new Promise<ServerMessage>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${mode} server exited with ${code}`));
    const onMessage = (message: ServerMessage) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
  const ready = await next('ready');
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir: ready.type === 'ready' ? ready.dataDir : null,
    async memory() {
      const answer = next('rss');
      child.send({ type: 'rss' });
      const message = await answer;
      return message.type === 'rss' ? message : { rss: 0, heapUsed: 0, cpuMs: 0, busyMs: 0, gc: { minor: 0, minorMs: 0, major: 0, majorMs: 0, otherMs: 0 }, stalls: { p99Ms: 0, maxMs: 0 } };
    },
    stop: () => new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.send({ type: 'stop' });
    }),
  };
}

export type Request = autocannon.Request;

export async function run(url: string, requests: Request[], seconds = SECONDS): Promise<autocannon.Result> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, requests });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) console.warn(`  ! ${failures} of ${result.requests.total} requests failed (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`);
  return result;
}

/**
 * A load and the server's CPU time per request it answered: unlike requests per second, it does not
 * move when other work shares the machine, so its ratio to the ceiling's is the steadier figure.
 * Also how late the load generator's own event loop ran (p99, ms): it shares this machine's cores
 * with the server, and every latency it reports includes its own lateness.
 */
export type Measured = autocannon.Result & { cpuMicros: number; busyMicros: number; clientLateP99: number; gc: GcDuring; serverStalls: Stalls };

/** The server's GC pauses during one load: how many a second, their mean, and the share of the load's time. */
export interface GcDuring { minorPerSecond: number; minorMeanMs: number; majorPerSecond: number; majorMeanMs: number; pausedPercent: number }

function gcDuring(before: GcPauses, after: GcPauses, seconds: number): GcDuring {
  const minor = after.minor - before.minor;
  const major = after.major - before.major;
  const minorMs = after.minorMs - before.minorMs;
  const majorMs = after.majorMs - before.majorMs;
  const pausedMs = minorMs + majorMs + after.otherMs - before.otherMs;
  return {
    minorPerSecond: minor / seconds, minorMeanMs: minor ? minorMs / minor : 0,
    majorPerSecond: major / seconds, majorMeanMs: major ? majorMs / major : 0,
    pausedPercent: (100 * pausedMs) / (1000 * seconds),
  };
}

const LATENESS_RESOLUTION_MS = 1;

export async function runMeasured(server: Server, requests: Request[], seconds = SECONDS): Promise<Measured> {
  const before = await server.memory();
  const lateness = monitorEventLoopDelay({ resolution: LATENESS_RESOLUTION_MS });
  lateness.enable();
  const result = await run(server.url, requests, seconds);
  lateness.disable();
  const after = await server.memory();
  const per = (ms: number) => (1000 * ms) / Math.max(1, result.requests.total);
  // The histogram holds whole intervals between checks: the lateness is what exceeds the interval.
  const clientLateP99 = Math.max(0, lateness.percentile(99) / 1e6 - LATENESS_RESOLUTION_MS);
  return Object.assign(result, {
    cpuMicros: per(after.cpuMs - before.cpuMs), busyMicros: per(after.busyMs - before.busyMs), clientLateP99, gc: gcDuring(before.gc, after.gc, result.duration),
    serverStalls: after.stalls, // since the report before the load
  });
}

async function call(server: Pick<Server, 'url'>, token: string | null, operation: string, body: unknown): Promise<any> {
  const response = await fetch(`${server.url}/api/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${operation} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** The admin's token, and a pool of projects to update and read. */
export async function prepare(server: Pick<Server, 'url' | 'dataDir'>, pool = POOL): Promise<{ token: string; projectIds: string[] }> {
  const admin = { email: 'bench@berth.test', password: 'benchmark password' };
  const setup = readFileSync(join(server.dataDir!, 'setup-token'), 'utf8').trim();
  await call(server, setup, 'auth.createAdmin', admin);
  const { token } = await call(server, null, 'auth.login', admin);
  const projectIds: string[] = [];
  for (let i = 0; i < pool; i += CONNECTIONS) {
    const created = await Promise.all(Array.from({ length: CONNECTIONS }, (_, j) =>
      call(server, token, 'project.create', { name: `pool ${i + j}`, description: 'benchmark' })));
    projectIds.push(...created.map((project: { projectId: string }) => project.projectId));
  }
  return { token, projectIds };
}

/** The middle value (the upper one of an even count). */
export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Each figure of several loads as its own median (throughput, latencies and CPU need not come from one load). */
export function medianOf(loads: readonly Measured[]): Measured {
  const of = (figure: (load: Measured) => number) => median(loads.map(figure));
  return Object.assign({}, loads[0]!, {
    requests: { ...loads[0]!.requests, average: of((load) => load.requests.average) },
    latency: { ...loads[0]!.latency, p50: of((load) => load.latency.p50), p99: of((load) => load.latency.p99) },
    cpuMicros: of((load) => load.cpuMicros),
    busyMicros: of((load) => load.busyMicros),
    clientLateP99: of((load) => load.clientLateP99),
    serverStalls: { p99Ms: of((load) => load.serverStalls.p99Ms), maxMs: of((load) => load.serverStalls.maxMs) },
    gc: {
      minorPerSecond: of((load) => load.gc.minorPerSecond), minorMeanMs: of((load) => load.gc.minorMeanMs),
      majorPerSecond: of((load) => load.gc.majorPerSecond), majorMeanMs: of((load) => load.gc.majorMeanMs),
      pausedPercent: of((load) => load.gc.pausedPercent),
    },
  });
}

export const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

export function commandMix(token: string, projectIds: readonly string[]): Request[] {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  let n = 0;
  return [
    { method: 'POST', path: '/api/project.create', headers, setupRequest: (request) => ({ ...request, body: JSON.stringify({ name: `bench ${n++}`, description: null }) }) },
    // A new name each time: an update that changes nothing appends nothing, and waits for nothing.
    { method: 'POST', path: '/api/project.update', headers, setupRequest: (request) => ({ ...request, body: JSON.stringify({ projectId: pick(projectIds), name: `renamed ${n++}` }) }) },
  ];
}

/**
 * The commands load on each server in turn, `cycles` times (after one cycle to warm up), the first of
 * each cycle swapping sides: the host's other tenants, which move one load by ±15 %, weigh on all
 * alike. Answers each server's bursts, cycle by cycle.
 */
export async function alternate(servers: readonly Server[], cycles: number, burstSeconds: number): Promise<Measured[][]> {
  const prepared = await Promise.all(servers.map((server) => prepare(server)));
  const bursts: Measured[][] = servers.map(() => []);
  for (let cycle = 0; cycle <= cycles; cycle++) {
    const order = servers.map((_, side) => side);
    if (cycle % 2 === 1) order.reverse();
    for (const side of order) {
      const { token, projectIds } = prepared[side]!;
      const measured = await runMeasured(servers[side]!, commandMix(token, projectIds), burstSeconds);
      if (cycle > 0) bursts[side]!.push(measured);
    }
  }
  return bursts;
}
