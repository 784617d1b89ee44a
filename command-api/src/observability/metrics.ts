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

  app.addHook('onResponse', async (request, reply) => {
    // Operations are routed at `/api/<name>`; anything else (health, unknown paths) by its route.
    const route = request.routeOptions.url ?? 'unknown';
    const operation = route.startsWith('/api/') ? route.slice(5) : route.replace(/^\//, '');
    const status = reply.statusCode;
    latency.observe({ operation, status }, reply.elapsedTime / 1000);
    if (request.method === 'POST' && route.startsWith('/api/')) commands.inc({ operation, outcome: outcomeOf(status) });
    request.log.info({ operation, status, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'answered');
  });

  app.get('/metrics', async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()));
}
