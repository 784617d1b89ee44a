// Gauges read at scrape time from the log, the read store and the bus: how far each consumer of
// the log (projections, the relay) is behind, in events and in seconds, what each durable consumer
// of the bus (a reactor) has not acknowledged yet, and records by status.
import { Gauge, type Registry } from 'prom-client';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { BUS_READ_BOUND_MS, bounded, consumerLags, type ConsumerLag } from './lag.ts';

/** Read-model collections whose documents carry a `status` worth counting. */
const BY_STATUS: Record<string, string> = { deployment: 'berth_deployments', backuprun: 'berth_backup_runs' };

export function collectLogMetrics(registry: Registry, infra: Infrastructure): void {
  const { eventStore, readStore } = infra;
  new Gauge({
    name: 'berth_log_head_position', help: 'Position of the last event in the log', registers: [registry],
    async collect() { this.set(await eventStore.head()); },
  });
  // Both lag gauges come from one reading of the lags per scrape (prom-client collects them at once),
  // and hold only that reading: a consumer it could not read (the relay, NATS away) has no series
  // rather than the value of an earlier scrape.
  let reading: Promise<ConsumerLag[]> | null = null;
  const lags = () => (reading ??= consumerLags(infra).finally(() => { reading = null; }));
  new Gauge({
    name: 'berth_consumer_lag_seconds', help: 'Age of the oldest event a consumer has not applied yet (0 when caught up)',
    labelNames: ['consumer'] as const, registers: [registry],
    async collect() {
      const read = await lags();
      this.reset();
      for (const { name, lagSeconds } of read) this.set({ consumer: name }, lagSeconds);
    },
  });
  new Gauge({
    name: 'berth_consumer_lag_events', help: 'Events in the log that a consumer (projection, relay) has not applied yet',
    labelNames: ['consumer'] as const, registers: [registry],
    async collect() {
      const read = await lags();
      this.reset();
      for (const { name, lagEvents } of read) this.set({ consumer: name }, lagEvents);
    },
  });
  new Gauge({
    name: 'berth_bus_consumer_pending', help: 'Events a durable bus consumer (a reactor) has not acknowledged yet',
    labelNames: ['consumer'] as const, registers: [registry],
    async collect() {
      this.reset();
      // The bus may be away: the scrape still answers, without this family (readiness says why).
      const pending = await bounded(infra.bus().then((bus) => bus.pending()), BUS_READ_BOUND_MS, 'the bus')
        .catch(() => new Map<string, number>());
      for (const [consumer, count] of pending) this.set({ consumer }, count);
    },
  });
  for (const [collection, name] of Object.entries(BY_STATUS)) {
    new Gauge({
      name, help: `${collection} records by status`, labelNames: ['status'] as const, registers: [registry],
      async collect() {
        this.reset();
        const counts = new Map<string, number>();
        for (const doc of await readStore.all(collection)) counts.set(String(doc.status), (counts.get(String(doc.status)) ?? 0) + 1);
        for (const [status, count] of counts) this.set({ status }, count);
      },
    });
  }
}
