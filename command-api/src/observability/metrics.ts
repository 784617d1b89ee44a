// `/metrics` in the Prometheus text format, and one structured log line per request. The request's
// id is its correlation id (see server.ts), so each line names the events the request appended.
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry } from 'prom-client';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { collectLogMetrics } from './log-metrics.ts';

const outcomeOf = (status: number) => (status < 400 ? 'ok' : status < 500 ? 'rejected' : 'failed');

export function observe(app: FastifyInstance, infra: Infrastructure): void {
  if (!infra.config.metrics) return;
  const registry = new Registry();
  const latency = new Histogram({
    name: 'berth_request_duration_seconds',
    help: 'Time from request to answer, per operation',
    labelNames: ['operation', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const commands = new Counter({
    name: 'berth_commands_total',
    help: 'Commands (POST operations) by outcome: ok, rejected (4xx) or failed (5xx)',
    labelNames: ['operation', 'outcome'] as const,
    registers: [registry],
  });
  collectLogMetrics(registry, infra);

  // The series of each route, method and status, found once: labelling each observation anew (the
  // client hashes its labels every time) cost a measurable share of a command.
  const series = new Map<string, { operation: string; latency: Histogram.Internal<'operation' | 'status'>; command: Counter.Internal | null }>();
  const seriesOf = (route: string, method: string, status: number) => {
    const key = `${method} ${status} ${route}`;
    let found = series.get(key);
    if (!found) {
      // Operations are routed at `/api/<name>`; anything else (health, unknown paths) by its route.
      const operation = route.startsWith('/api/') ? route.slice(5) : route.replace(/^\//, '');
      const command = method === 'POST' && route.startsWith('/api/') ? commands.labels({ operation, outcome: outcomeOf(status) }) : null;
      found = { operation, latency: latency.labels({ operation, status }), command };
      series.set(key, found);
    }
    return found;
  };

  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const { operation, latency: observed, command } = seriesOf(request.routeOptions.url ?? 'unknown', request.method, status);
    observed.observe(reply.elapsedTime / 1000);
    command?.inc();
    request.log.info({ operation, status, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'answered');
    done();
  });

  app.get('/metrics', async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()));
}
