// The bus's event-to-reactor latency: from the append of an event to the log until a reactor's
// consumer holds it (log → relay → bus → durable consumer), p50 and p99 over 1,000 events sent
// one every 2 ms. On NATS JetStream (a real nats-server) against the in-process bus as the ceiling.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NatsBus } from '@berth/shared/adapters/bus/nats-bus';
import { newId } from '@berth/shared/ids';
import type { Bus } from '@berth/shared/ports/bus';
import { configFrom } from '@berth/shared/runtime/config';
import { launch } from '@berth/shared/runtime/launch';
import { startNats } from '../support/nats.ts';

interface Row { figure: string; value: string; target: string; met: string; ratio: string }

const EVENTS = 1000;
const SPACING_MS = 2;
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function latencies(natsUrl: string | undefined): Promise<number[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-bus-'));
  const berth = await launch(configFrom({}, { dataDir, roles: ['relay'], logLevel: 'silent', sqliteSynchronous: 'NORMAL', natsUrl }));
  // On NATS the reactor is its own connection, as a reactors process would be.
  const bus: Bus = natsUrl ? await NatsBus.connect(natsUrl) : await berth.infrastructure.bus();
  const appendedAt = new Map<string, number>();
  const measured: number[] = [];
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  const consumer = await bus.consume(`bench_${newId().replace(/\W/g, '')}`, async ({ event }) => {
    const at = appendedAt.get(event.id);
    if (at !== undefined) measured.push(performance.now() - at);
    if (measured.length === EVENTS) done();
  }, { concurrency: 16 });
  const metadata = { actorId: null, correlationId: 'bench', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 };
  for (let i = 0; i < EVENTS; i++) {
    const id = newId();
    appendedAt.set(id, performance.now());
    await berth.infrastructure.eventStore.append(`bench-${id}`, [{ id, type: 'BenchHappened', data: { i }, metadata }], 'no_stream');
    await new Promise((resolve) => setTimeout(resolve, SPACING_MS));
  }
  await all;
  await consumer.stop();
  if (natsUrl) await bus.close();
  await berth.stop();
  rmSync(dataDir, { recursive: true, force: true });
  return measured.sort((a, b) => a - b);
}

export async function benchBus(): Promise<Row[]> {
  console.log(`- bus: event-to-reactor latency, ${EVENTS} events through the relay`);
  const ceiling = await latencies(undefined);
  const nats = await startNats();
  try {
    const measured = await latencies(nats.url);
    const p99 = quantile(measured, 0.99);
    const fmt = (ms: number) => ms.toFixed(2);
    return [
      { figure: 'bus event-to-reactor p50 / p99 ms (NATS)', value: `${fmt(quantile(measured, 0.5))} / ${fmt(p99)}`, target: '', met: '', ratio: `p99 ×${(p99 / Math.max(0.01, quantile(ceiling, 0.99))).toFixed(1)} of in-process` },
      { figure: '(in-process bus p50 / p99 ms)', value: `${fmt(quantile(ceiling, 0.5))} / ${fmt(quantile(ceiling, 0.99))}`, target: '', met: '', ratio: '' },
    ];
  } finally {
    await nats.stop();
  }
}
