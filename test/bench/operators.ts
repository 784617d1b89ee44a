// The operators' figures: `events.all` pages of 1,000 from a log of 1,000,000 events (p99 at
// random cursors, over HTTP), and the cost of metrics and request logging on command throughput
// (two servers, with them on and off, loaded in alternating bursts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import type { NewEvent } from '@berth/shared/events/event';
import { newId } from '@berth/shared/ids';
import { listeningBerth } from '../support/http.ts';
import { alternate, median, medianOf, startServer, type Measured } from './kit.ts';

interface Row { figure: string; value: string; target: string; met: string; ratio: string }
const LOG_SIZE = Number(process.env.BENCH_LOG_SIZE ?? 1_000_000);
const PAGE = 1000;
const SAMPLES = 300;
const CYCLES = Number(process.env.BENCH_CYCLES ?? 6);
const BURST_SECONDS = 3;
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
      // A page that ends less than a page before the head has no full page after it: start afresh.
      cursor = page.events[PAGE - 1].position + PAGE <= head ? page.nextCursor : null;
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

/**
 * Two servers, one with metrics and request logs off and one with them on (metrics, level info),
 * loaded in alternating bursts: the cost is the median, over the cycles, of the throughput lost (the
 * issue's measure) and of the CPU added per command. Loads one after the other would also measure how
 * the host's other tenants moved in between (that way this read 10-23 % on runs where paired bursts read 8-10 %).
 */
async function benchObservabilityCost(): Promise<Row[]> {
  const servers = [
    await startServer('berth', { env: { BERTH_METRICS: 'off', BERTH_LOG_LEVEL: 'error' } }),
    await startServer('berth', { env: { BERTH_METRICS: 'on', BERTH_LOG_LEVEL: 'info' } }),
  ];
  try {
    const [off, on] = await alternate(servers, CYCLES, BURST_SECONDS);
    const perCycle = (figure: (burst: Measured) => number) => median(on!.map((burst, cycle) => figure(burst) / figure(off![cycle]!)));
    const perSecond = (bursts: readonly Measured[]) => medianOf(bursts).requests.average;
    const lost = 100 * (1 - perCycle((burst) => burst.requests.average));
    const added = 100 * (perCycle((burst) => burst.cpuMicros) - 1);
    return [
      { figure: 'commands/s, metrics + request logs off / on', value: `${fmt(perSecond(off!))} / ${fmt(perSecond(on!))}`, target: '', met: '', ratio: '' },
      { figure: 'cost of metrics + request logs: throughput lost / CPU added per command', value: `${fmt(lost, 1)} % / ${fmt(added, 1)} %`, target: '≤ 5 %', met: lost <= 5 ? 'yes' : 'NO', ratio: `medians of ${off!.length} paired bursts` },
    ];
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

export async function benchOperators(): Promise<Row[]> {
  console.log('- operators: events.all pages from a large log');
  const history = await benchHistory();
  console.log('- operators: command throughput with metrics and request logs off, then on');
  return [...history, ...(await benchObservabilityCost())];
}
