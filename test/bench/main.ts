// `pnpm bench`: Berth as an operator runs it, driven over HTTP keep-alive by 50 concurrent clients,
// beside a bare Fastify route as the ceiling of this machine, and the same route appending one event
// to the embedded log as the ceiling of a durable write (what any command costs at least); plus the
// projection rebuild speed. Besides the server's CPU time per request (all its threads), the request
// thread's busy time per request: when it nears 1 s per second, that thread is what limits.
// Targets (from the issues): commands ≥ 8,000/s with p99 ≤ 15 ms, .one ≥ 15,000/s with p99 ≤ 5 ms,
// project.all ≥ 3,000/s (200 projects, p99 ≤ 50 ms) and ≥ 1,000/s (1,000 services),
// rebuild ≥ 100,000 events/s, resident memory ≤ 200 MB.
// Knobs: BENCH_SECONDS (per load, default 10), BENCH_ONLY (see below), BENCH_PROFILE=<dir> (the
// servers run with --cpu-prof into it), BERTH_NODE_FLAGS (more V8 flags for the servers, e.g. to try a
// GC setting), BERTH_SQLITE_SYNCHRONOUS (FULL by default, as operators run).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort } from '../support/http.ts';
import { benchRebuild } from './rebuild.ts';
import { backupRows, benchBackup } from './backup.ts';
import { benchOperators } from './operators.ts';
import { benchBus } from './bus.ts';
import { benchDeploy } from './deploy.ts';
import { benchDashboard } from './dashboard.ts';
import { benchScaleout } from './scaleout.ts';
import type { ServerMessage } from './server.ts';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const POOL = 1000;
const MB = 1024 * 1024;
/** `BENCH_ONLY=queries` (or a comma list of ceiling, commands, queries, rebuild) runs just those, e.g. to profile one. */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'ceiling,commands,queries,dashboard,rebuild,operators,bus,deploy,scaleout,backup').split(','));

const START_SCRIPT = fileURLToPath(new URL('../../shared/runtime/start.sh', import.meta.url));

interface Server {
  readonly url: string;
  readonly dataDir: string | null;
  memory(): Promise<{ rss: number; heapUsed: number; cpuMs: number; busyMs: number }>;
  stop(): Promise<void>;
}

async function startServer(mode: 'berth' | 'ceiling' | 'log-ceiling'): Promise<Server> {
  const port = await freePort();
  // Through the same start script as `pnpm start`, so Berth runs with the settings users get.
  const profile = process.env.BENCH_PROFILE ? `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE}` : '';
  const child: ChildProcess = spawn('bash', [START_SCRIPT, fileURLToPath(new URL('./server.ts', import.meta.url)), mode, String(port)], {
    env: { ...process.env, BERTH_NODE_FLAGS: `${process.env.BERTH_NODE_FLAGS ?? ''} ${profile}` },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = (type: ServerMessage['type']) => new Promise<ServerMessage>((resolve, reject) => {
    const onMessage = (message: ServerMessage) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  const ready = await next('ready');
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir: ready.type === 'ready' ? ready.dataDir : null,
    async memory() {
      const answer = next('rss');
      child.send({ type: 'rss' });
      const message = await answer;
      return message.type === 'rss' ? message : { rss: 0, heapUsed: 0, cpuMs: 0, busyMs: 0 };
    },
    stop: () => new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.send({ type: 'stop' });
    }),
  };
}

type Request = autocannon.Request;

async function run(url: string, requests: Request[], seconds = SECONDS): Promise<autocannon.Result> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, requests });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) console.warn(`  ! ${failures} of ${result.requests.total} requests failed (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`);
  return result;
}

/**
 * A load and the server's CPU time per request it answered: unlike requests per second, it does not
 * move when other work shares the machine, so its ratio to the ceiling's is the steadier figure.
 */
type Measured = autocannon.Result & { cpuMicros: number; busyMicros: number };

async function runMeasured(server: Server, requests: Request[]): Promise<Measured> {
  const before = await server.memory();
  const result = await run(server.url, requests);
  const after = await server.memory();
  const per = (ms: number) => (1000 * ms) / Math.max(1, result.requests.total);
  return Object.assign(result, { cpuMicros: per(after.cpuMs - before.cpuMs), busyMicros: per(after.busyMs - before.busyMs) });
}

async function call(server: Server, token: string | null, operation: string, body: unknown): Promise<any> {
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
async function prepare(server: Server, pool = POOL): Promise<{ token: string; projectIds: string[] }> {
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

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

function commandMix(token: string, projectIds: readonly string[]): Request[] {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  let n = 0;
  return [
    { method: 'POST', path: '/api/project.create', headers, setupRequest: (request) => ({ ...request, body: JSON.stringify({ name: `bench ${n++}`, description: null }) }) },
    // A new name each time: an update that changes nothing appends nothing, and waits for nothing.
    { method: 'POST', path: '/api/project.update', headers, setupRequest: (request) => ({ ...request, body: JSON.stringify({ projectId: pick(projectIds), name: `renamed ${n++}` }) }) },
  ];
}

function oneQueries(token: string, projectIds: readonly string[]): Request[] {
  const headers = { authorization: `Bearer ${token}` };
  return [{ method: 'GET', path: '/api/project.one', headers, setupRequest: (request) => ({ ...request, path: `/api/project.one?projectId=${pick(projectIds)}` }) }];
}

const ceilingRequest: Request[] = [{
  method: 'POST', path: '/echo', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench', description: null }),
}];

interface Row { figure: string; value: string; target: string; met: string; ratio: string }

const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (value: number, ceiling: number) => (Number.isNaN(ceiling) ? '' : `${fmt((100 * value) / ceiling, 1)} %`);
const met = (ok: boolean) => (ok ? 'yes' : 'NO');

function print(rows: Row[]) {
  const header: Row = { figure: 'figure', value: 'value', target: 'target', met: 'met', ratio: 'vs ceiling' };
  const all = [header, ...rows];
  const width = (key: keyof Row) => Math.max(...all.map((row) => row[key].length));
  const keys: Array<keyof Row> = ['figure', 'value', 'target', 'met', 'ratio'];
  const line = (row: Row) => `| ${keys.map((key) => (key === 'figure' ? row[key].padEnd(width(key)) : row[key].padStart(width(key)))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${keys.map((key) => '-'.repeat(width(key) + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

const latency = (result: autocannon.Result) => `${result.latency.p50} / ${result.latency.p99}`;

async function main() {
  const started = performance.now();
  console.log(`Berth benchmark: ${CONNECTIONS} connections, ${SECONDS} s per load, SQLite synchronous ${process.env.BERTH_SQLITE_SYNCHRONOUS ?? 'FULL'}`);
  const rows: Row[] = [];
  const [load] = loadavg();
  if (load! > 0.5) console.warn(`  ! load average ${fmt(load!, 2)} before the start: other work on this machine skews every figure`);

  let ceiling: Measured | null = null;
  /** The durable-write ceiling: bare Fastify plus one append to the embedded log, group-committed. */
  let logCeiling: Measured | null = null;
  let ceilingRss = 0;
  /** The ceiling request against a server of its own: the load, and the server's memory after it. */
  const measureAlone = async (mode: 'ceiling' | 'log-ceiling') => {
    const server = await startServer(mode);
    await run(server.url, ceilingRequest, WARMUP_SECONDS);
    const measured = await runMeasured(server, ceilingRequest);
    const { rss } = await server.memory();
    await server.stop();
    return { measured, rss };
  };
  if (ONLY.has('ceiling')) {
    console.log('- ceiling: bare Fastify JSON POST');
    ({ measured: ceiling, rss: ceilingRss } = await measureAlone('ceiling'));
    console.log('- log ceiling: the same route appending one event to the embedded log');
    ({ measured: logCeiling } = await measureAlone('log-ceiling'));
    rows.push(
      { figure: 'ceiling: bare Fastify POST req/s', value: fmt(ceiling.requests.average), target: '', met: '', ratio: '100.0 %' },
      { figure: 'ceiling: p50 / p99 ms', value: latency(ceiling), target: '', met: '', ratio: '' },
      { figure: 'ceiling: server CPU / request thread busy, µs per request', value: `${fmt(ceiling.cpuMicros)} / ${fmt(ceiling.busyMicros)}`, target: '', met: '', ratio: '' },
      { figure: 'log ceiling: POST + one log append req/s', value: fmt(logCeiling.requests.average), target: '', met: '', ratio: ratio(logCeiling.requests.average, ceiling.requests.average) },
      { figure: 'log ceiling: p50 / p99 ms', value: latency(logCeiling), target: '', met: '', ratio: '' },
      { figure: 'log ceiling: server CPU / request thread busy, µs per request', value: `${fmt(logCeiling.cpuMicros)} / ${fmt(logCeiling.busyMicros)}`, target: '', met: '', ratio: '' },
    );
  }
  const c = ceiling?.requests.average ?? NaN;
  /** The ceiling's CPU per request over Berth's: the share of the ceiling Berth would reach on an idle machine. */
  const cpuRow = (figure: string, result: Measured): Row => ({
    figure: `${figure} server CPU / request thread busy, µs per request`, value: `${fmt(result.cpuMicros)} / ${fmt(result.busyMicros)}`, target: '', met: '',
    ratio: ceiling ? `${fmt((100 * ceiling.cpuMicros) / result.cpuMicros, 1)} % by CPU` : '',
  });
  const p99Ratio = (result: autocannon.Result) => (ceiling ? `p99 ×${fmt(result.latency.p99 / Math.max(1, ceiling.latency.p99), 1)}` : '');
  const logRatio = (perSecond: number) => (logCeiling ? `, ${ratio(perSecond, logCeiling.requests.average)} of log ceiling` : '');

  if (ONLY.has('commands') || ONLY.has('queries')) {
    console.log('- Berth: launch(), roles api + projections');
    const berth = await startServer('berth');
    const { token, projectIds } = await prepare(berth);
    if (ONLY.has('commands')) {
      console.log('  commands: project.create + project.update');
      await run(berth.url, commandMix(token, projectIds), WARMUP_SECONDS);
      const commands = await runMeasured(berth, commandMix(token, projectIds));
      const perSecond = commands.requests.average;
      rows.push(
        { figure: 'commands/s (create + update)', value: fmt(perSecond), target: '≥ 8,000', met: met(perSecond >= 8000), ratio: `${ratio(perSecond, c)}${logRatio(perSecond)}` },
        { figure: 'commands p50 / p99 ms', value: latency(commands), target: 'p99 ≤ 15', met: met(commands.latency.p99 <= 15), ratio: p99Ratio(commands) },
        cpuRow('commands:', commands),
      );
    }
    if (ONLY.has('queries')) {
      console.log('  queries: project.one');
      await run(berth.url, oneQueries(token, projectIds), WARMUP_SECONDS);
      const queries = await runMeasured(berth, oneQueries(token, projectIds));
      const perSecond = queries.requests.average;
      rows.push(
        { figure: '.one queries/s (project.one)', value: fmt(perSecond), target: '≥ 15,000', met: met(perSecond >= 15000), ratio: ratio(perSecond, c) },
        { figure: '.one p50 / p99 ms', value: latency(queries), target: 'p99 ≤ 5', met: met(queries.latency.p99 <= 5), ratio: p99Ratio(queries) },
        cpuRow('.one:', queries),
      );
    }
    const { rss, heapUsed } = await berth.memory();
    await berth.stop();
    rows.push({
      figure: 'resident memory after the run (MB)', value: fmt(rss / MB, 1), target: '≤ 200', met: met(rss / MB <= 200),
      ratio: ceiling ? `×${fmt(rss / ceilingRss, 1)} of ceiling's ${fmt(ceilingRss / MB, 1)}` : '',
    }, { figure: '(of which V8 heap in use, MB)', value: fmt(heapUsed / MB, 1), target: '', met: '', ratio: '' });
  }

  if (ONLY.has('rebuild')) {
    console.log('- rebuild: 100,000 events into a fresh read store');
    const rebuild = await benchRebuild(100_000);
    rows.push(
      { figure: 'rebuild events/s (100k events)', value: fmt(rebuild.rebuildPerSecond), target: '≥ 100,000', met: met(rebuild.rebuildPerSecond >= 100_000), ratio: ratio(rebuild.rebuildPerSecond, c) },
      { figure: '(append events/s, batches of 1,000)', value: fmt(rebuild.appendPerSecond), target: '', met: '', ratio: '' },
    );
  }

  if (ONLY.has('dashboard')) rows.push(...await benchDashboard({ startServer, prepare, run, runMeasured, commandMix }, c, ceiling?.cpuMicros ?? NaN));
  if (ONLY.has('operators')) rows.push(...await benchOperators({ startServer, prepare, run, runMeasured, commandMix }));
  if (ONLY.has('bus')) rows.push(...await benchBus());
  if (ONLY.has('deploy')) rows.push(...await benchDeploy());
  if (ONLY.has('scaleout')) rows.push(...await benchScaleout({ startServer, prepare, commandMix }));
  if (ONLY.has('backup')) rows.push(...backupRows(await benchBackup()));
  print(rows);
  console.log(`(whole bench ${fmt((performance.now() - started) / 1000, 1)} s)`);
}

await main();
