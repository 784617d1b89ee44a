// The operators' figures: `events.all` pages of 1,000 from a log of 1,000,000 events (p99 at
// random cursors, over HTTP), and the cost of metrics and request logging on command throughput
// (the same command load with them on and off, each run twice, alternating, best of each).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import type { NewEvent } from '@berth/shared/events/event';
import { newId } from '@berth/shared/ids';
import { listeningBerth } from '../support/http.ts';

interface Row { figure: string; value: string; target: string; met: string; ratio: string }
interface Server { readonly url: string; stop(): Promise<void>; memory(): Promise<{ cpuMs: number }> }
export interface BenchKit {
  startServer(mode: 'berth'): Promise<Server>;
  prepare(server: Server, pool?: number): Promise<{ token: string; projectIds: string[] }>;
  run(url: string, requests: autocannon.Request[], seconds?: number): Promise<autocannon.Result>;
  /** A load of the standard length with the server's CPU time per request. */
  runMeasured(server: Server, requests: autocannon.Request[]): Promise<autocannon.Result & { cpuMicros: number }>;
  commandMix(token: string, projectIds: readonly string[]): autocannon.Request[];
}

const LOG_SIZE = Number(process.env.BENCH_LOG_SIZE ?? 1_000_000);
const PAGE = 1000;
const SAMPLES = 300;
const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function fillLog(dataDir: string): Promise<void> {
  const store = new SqliteEventStore(join(dataDir, 'events.db'), { synchronous: 'NORMAL' });
  const occurredAt = new Date().toISOString();
  for (let done = 0; done < LOG_SIZE; done += PAGE) {
    await Promise.all(Array.from({ length: PAGE / 10 }, () => {
      const id = newId();
      const events: NewEvent[] = Array.from({ length: 10 }, (_, i) => ({
        id: newId(), type: i === 0 ? 'AuditSampleOpened' : 'AuditSampleNoted',
        data: { sampleId: id, note: `note ${i} of a sample in the history benchmark`, n: i },
        metadata: { actorId: 'bench', correlationId: newId(), causationId: null, occurredAt, schemaVersion: 1 },
      }));
      return store.append(`sample-${id}`, events, 'no_stream');
    }));
  }
  await store.close();
}

async function benchHistory(): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-history-'));
  const filled = performance.now();
  await fillLog(dataDir);
  console.log(`  log of ${fmt(LOG_SIZE)} events written in ${fmt((performance.now() - filled) / 1000, 1)} s`);
  const server = await listeningBerth({ dataDir, config: { sqliteSynchronous: 'NORMAL' } });
  try {
    const { infrastructure } = server.berth;
    await infrastructure.readStore.waitFor(await infrastructure.eventStore.head(), 600_000);
    const admin = { email: 'history@berth.test', password: 'benchmark password' };
    server.client.token = server.setupToken();
    await server.client.ok('auth.createAdmin', admin);
    server.client.token = (await server.client.ok('auth.login', admin)).token;
    const head = await infrastructure.eventStore.head();
    const times: number[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < SAMPLES; i++) {
      // Half the pages at a random position, half by following the cursor of the page before.
      const query: Record<string, unknown> = cursor && i % 2 ? { cursor, limit: PAGE } : { after: Math.floor(Math.random() * (head - PAGE)), limit: PAGE };
      const started = performance.now();
      const page = await server.client.ok('events.all', query);
      times.push(performance.now() - started);
      if (page.events.length !== PAGE) throw new Error(`a page held ${page.events.length} events`);
      cursor = page.nextCursor;
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    return [
      { figure: `events.all page of 1,000, ${fmt(LOG_SIZE / 1e6, 1)}M log: p50 / p99 ms`, value: `${fmt(p(0.5), 1)} / ${fmt(p(0.99), 1)}`, target: 'p99 ≤ 50', met: p(0.99) <= 50 ? 'yes' : 'NO', ratio: '' },
    ];
  } finally {
    await server.stop();
  }
}

async function commandsPerSecond(kit: BenchKit, metrics: boolean): Promise<number> {
  const saved = { metrics: process.env.BERTH_METRICS, level: process.env.BERTH_LOG_LEVEL };
  process.env.BERTH_METRICS = metrics ? 'on' : 'off';
  process.env.BERTH_LOG_LEVEL = metrics ? 'info' : 'error';
  try {
    const server = await kit.startServer('berth');
    const { token, projectIds } = await kit.prepare(server);
    await kit.run(server.url, kit.commandMix(token, projectIds), 2);
    const result = await kit.run(server.url, kit.commandMix(token, projectIds));
    await server.stop();
    return result.requests.average;
  } finally {
    for (const [name, value] of [['BERTH_METRICS', saved.metrics], ['BERTH_LOG_LEVEL', saved.level]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

async function benchObservabilityCost(kit: BenchKit): Promise<Row[]> {
  let off = 0;
  let on = 0;
  for (let round = 0; round < 2; round++) {
    off = Math.max(off, await commandsPerSecond(kit, false));
    on = Math.max(on, await commandsPerSecond(kit, true));
  }
  const cost = (100 * (off - on)) / off;
  return [
    { figure: 'commands/s, metrics + request logs off / on', value: `${fmt(off)} / ${fmt(on)}`, target: '', met: '', ratio: '' },
    { figure: 'cost of metrics + request logs', value: `${fmt(cost, 1)} %`, target: '≤ 5 %', met: cost <= 5 ? 'yes' : 'NO', ratio: `on = ${fmt((100 * on) / off, 1)} % of off` },
  ];
}

export async function benchOperators(kit: BenchKit): Promise<Row[]> {
  console.log('- operators: events.all pages from a large log');
  const history = await benchHistory();
  console.log('- operators: command throughput with metrics and request logs off, then on');
  return [...history, ...(await benchObservabilityCost(kit))];
}
