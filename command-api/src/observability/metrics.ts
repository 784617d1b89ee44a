// `/metrics` in the Prometheus text format, and one structured log line per request. The request's
// id is its correlation id (see server.ts), so each line names the events the request appended.
import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { collectLogMetrics } from './log-metrics.ts';
import { RequestMetrics } from './request-metrics.ts';

const LOGS_INFO = new Set(['trace', 'debug', 'info']);

export function observe(app: FastifyInstance, infra: Infrastructure): void {
  if (!infra.config.metrics) return;
  const requests = new RequestMetrics();
  // Scrape-time gauges, which prom-client serves well: its per-call label handling costs only here.
  const registry = new Registry();
  collectLogMetrics(registry, infra);
  // Below the operator's level the line is not even built.
  const logging = LOGS_INFO.has(app.log.level);

  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const series = requests.of(request.routeOptions.url ?? 'unknown', request.method, status);
    series.observe(reply.elapsedTime / 1000);
    if (logging) request.log.info({ operation: series.operation, status, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'answered');
    done();
  });

  app.get('/metrics', async (_request, reply) =>
    reply.type(registry.contentType).send(`${requests.render()}\n${await registry.metrics()}`));
}
