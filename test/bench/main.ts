// `pnpm bench`: Berth as an operator runs it, driven over HTTP keep-alive by 50 concurrent clients,
// beside a bare Fastify route as the ceiling of this machine, and the same route appending one event
// to the embedded log as the ceiling of a durable write (what any command costs at least); plus the
// projection rebuild speed, and the commands load on every role in one process (`start`: what
// `pnpm start` runs, the relay and the reactors too). Besides the server's CPU time per request
// (all its threads), the request thread's busy time per request: when it nears 1 s per second,
// that thread is what limits.
// Targets (from the issues): commands ≥ 8,000/s with p99 ≤ 15 ms, .one ≥ 15,000/s with p99 ≤ 5 ms,
// project.all ≥ 3,000/s (200 projects, p99 ≤ 50 ms) and ≥ 1,000/s (1,000 services),
// rebuild ≥ 100,000 events/s, resident memory ≤ 200 MB.
// Knobs: BENCH_SECONDS (per load, default 10), BENCH_ONLY (see below), BENCH_PROFILE=<dir> (the
// servers run with --cpu-prof into it), BENCH_ROUNDS (loads of the commands, default 3),
// BERTH_NODE_FLAGS (more V8 flags for the servers, e.g. to try a GC setting; BENCH_SERVER_STDOUT=1
// shows the servers' output, e.g. of --trace-gc),
// BERTH_SQLITE_SYNCHRONOUS (FULL by default, as operators run). To compare two versions: bench:ab (ab.ts).
import { loadavg } from 'node:os';
import type autocannon from 'autocannon';
import { benchRebuild } from './rebuild.ts';
import { backupRows, benchBackup } from './backup.ts';
import { benchOperators } from './operators.ts';
import { benchBus } from './bus.ts';
import { benchDeploy } from './deploy.ts';
import { benchDashboard } from './dashboard.ts';
import { benchScaleout } from './scaleout.ts';
import { CONNECTIONS, SECONDS, commandMix, medianOf, pick, prepare, run, runMeasured, startServer, type Measured, type Request, type Server } from './kit.ts';

const WARMUP_SECONDS = 2;
/** Loads of the commands, each SECONDS long: one load moves by ±15 % with this host's other tenants, so the median of a few is the figure. */
const COMMAND_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MB = 1024 * 1024;
/** `BENCH_ONLY=queries` (or a comma list of the sections below: ceiling, commands, queries, start, rebuild, ...) runs just those, e.g. to profile one. */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'ceiling,commands,queries,start,dashboard,rebuild,operators,bus,deploy,scaleout,backup').split(','));

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
  const lateRow = (figure: string, result: Measured): Row => ({
    figure: `${figure} load generator's own lateness p99 ms (in every latency above)`, value: fmt(result.clientLateP99, 1), target: '', met: '', ratio: '',
  });
  const stallRow = (figure: string, { serverStalls }: Measured): Row => ({
    figure: `${figure} server event loop's lateness p99 / longest stall, ms`, value: `${fmt(serverStalls.p99Ms, 1)} / ${fmt(serverStalls.maxMs, 1)}`, target: '', met: '', ratio: '',
  });
  const gcRow = (figure: string, { gc }: Measured): Row => ({
    figure: `${figure} server GC pauses: minor /s × mean ms, major /s × mean ms (share of the time)`,
    value: `${fmt(gc.minorPerSecond, 1)} × ${fmt(gc.minorMeanMs, 2)}, ${fmt(gc.majorPerSecond, 2)} × ${fmt(gc.majorMeanMs, 1)} (${fmt(gc.pausedPercent, 1)} %)`,
    target: '', met: '', ratio: '',
  });
  const p99Ratio = (result: autocannon.Result) => (ceiling ? `p99 ×${fmt(result.latency.p99 / Math.max(1, ceiling.latency.p99), 1)}` : '');
  const logRatio = (perSecond: number) => (logCeiling ? `, ${ratio(perSecond, logCeiling.requests.average)} of log ceiling` : '');

  /** The commands load on a prepared server, after a warm-up: each load, and their median. */
  const commandLoads = async (server: Server, token: string, projectIds: readonly string[]) => {
    await run(server.url, commandMix(token, projectIds), WARMUP_SECONDS);
    const rounds: Measured[] = [];
    for (let round = 0; round < COMMAND_ROUNDS; round++) rounds.push(await runMeasured(server, commandMix(token, projectIds)));
    return { rounds, commands: medianOf(rounds) };
  };
  const eachLoadRow = (figure: string, rounds: readonly Measured[]): Row => ({
    figure, value: rounds.map((round) => `${fmt(round.requests.average)} (${round.latency.p99})`).join(', '), target: '', met: '', ratio: '',
  });

  if (ONLY.has('commands') || ONLY.has('queries')) {
    console.log('- Berth: launch(), roles api + projections');
    const berth = await startServer('berth');
    const { token, projectIds } = await prepare(berth);
    if (ONLY.has('commands')) {
      console.log('  commands: project.create + project.update');
      const { rounds, commands } = await commandLoads(berth, token, projectIds);
      const perSecond = commands.requests.average;
      rows.push(
        { figure: `commands/s (create + update), median of ${rounds.length} loads`, value: fmt(perSecond), target: '≥ 8,000', met: met(perSecond >= 8000), ratio: `${ratio(perSecond, c)}${logRatio(perSecond)}` },
        { figure: 'commands p50 / p99 ms, median of the loads', value: latency(commands), target: 'p99 ≤ 15', met: met(commands.latency.p99 <= 15), ratio: p99Ratio(commands) },
        eachLoadRow('commands: each load, req/s (p99 ms)', rounds),
        cpuRow('commands:', commands),
        lateRow('commands:', commands),
        gcRow('commands:', commands),
        stallRow('commands:', commands),
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
        lateRow('.one:', queries),
        gcRow('.one:', queries),
        stallRow('.one:', queries),
      );
    }
    const { rss, heapUsed } = await berth.memory();
    await berth.stop();
    rows.push({
      figure: 'resident memory after the run (MB)', value: fmt(rss / MB, 1), target: '≤ 200', met: met(rss / MB <= 200),
      ratio: ceiling ? `×${fmt(rss / ceilingRss, 1)} of ceiling's ${fmt(ceilingRss / MB, 1)}` : '',
    }, { figure: '(of which V8 heap in use, MB)', value: fmt(heapUsed / MB, 1), target: '', met: '', ratio: '' });
  }

  if (ONLY.has('start')) {
    // What `pnpm start` runs: the relay publishes every event to the in-process bus and each reactor
    // reads it. No target of its own; loads that decline one after another show a cost that grows.
    console.log('- Berth as pnpm start runs it: every role in one process');
    const all = await startServer('berth-all');
    const { token, projectIds } = await prepare(all);
    const { rounds, commands } = await commandLoads(all, token, projectIds);
    const { rss } = await all.memory();
    await all.stop();
    rows.push(
      { figure: `every role: commands/s, median of ${rounds.length} loads`, value: fmt(commands.requests.average), target: '', met: '', ratio: ratio(commands.requests.average, c) },
      eachLoadRow('every role: each load, req/s (p99 ms)', rounds),
      cpuRow('every role:', commands),
      { figure: 'every role: resident memory after the run (MB)', value: fmt(rss / MB, 1), target: '', met: '', ratio: '' },
    );
  }

  if (ONLY.has('rebuild')) {
    console.log('- rebuild: 100,000 events into a fresh read store');
    const rebuild = await benchRebuild(100_000);
    rows.push(
      { figure: 'rebuild events/s (100k events)', value: fmt(rebuild.rebuildPerSecond), target: '≥ 100,000', met: met(rebuild.rebuildPerSecond >= 100_000), ratio: ratio(rebuild.rebuildPerSecond, c) },
      { figure: '(append events/s, batches of 1,000)', value: fmt(rebuild.appendPerSecond), target: '', met: '', ratio: '' },
    );
  }

  if (ONLY.has('dashboard')) rows.push(...await benchDashboard(c, ceiling?.cpuMicros ?? NaN));
  if (ONLY.has('operators')) rows.push(...await benchOperators());
  if (ONLY.has('bus')) rows.push(...await benchBus());
  if (ONLY.has('deploy')) rows.push(...await benchDeploy());
  if (ONLY.has('scaleout')) rows.push(...await benchScaleout());
  if (ONLY.has('backup')) rows.push(...backupRows(await benchBackup()));
  print(rows);
  console.log(`(whole bench ${fmt((performance.now() - started) / 1000, 1)} s)`);
}

await main();
