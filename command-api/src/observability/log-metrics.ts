// Gauges read at scrape time from the log and the read store: how far each consumer of the log
// (projections, the relay) is behind, in events and in seconds, and records by status.
import { Gauge, type Registry } from 'prom-client';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';

/** Read-model collections whose documents carry a `status` worth counting. */
const BY_STATUS: Record<string, string> = { deployment: 'berth_deployments', backuprun: 'berth_backup_runs' };

export function collectLogMetrics(registry: Registry, { eventStore, readStore, clock }: Infrastructure): void {
  new Gauge({
    name: 'berth_log_head_position', help: 'Position of the last event in the log', registers: [registry],
    async collect() { this.set(await eventStore.head()); },
  });
  const lagSeconds = new Gauge({
    name: 'berth_consumer_lag_seconds', help: 'Age of the oldest event a consumer has not applied yet (0 when caught up)',
    labelNames: ['consumer'] as const, registers: [registry],
  });
  new Gauge({
    name: 'berth_consumer_lag_events', help: 'Events in the log that a consumer (projection, relay) has not applied yet',
    labelNames: ['consumer'] as const, registers: [registry],
    async collect() {
      const head = await eventStore.head();
      const now = clock.now().getTime();
      for (const [consumer, position] of await readStore.checkpoints()) {
        this.set({ consumer }, head - position);
        const [next] = position < head ? await eventStore.readAll(position, 1) : [];
        lagSeconds.set({ consumer }, next ? Math.max(0, (now - Date.parse(next.metadata.occurredAt)) / 1000) : 0);
      }
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
