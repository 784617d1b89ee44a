// `/health`: the process answers. `/ready`: the stores answer and the read models are within a
// bound of the log's head, so a load balancer sends traffic only where reads are current.
import type { FastifyInstance } from 'fastify';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';

type Check = { ok: true; [detail: string]: unknown } | { ok: false; reason: string };

async function check(run: () => Promise<Record<string, unknown>>): Promise<Check> {
  try {
    return { ok: true, ...(await run()) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

export function health(app: FastifyInstance, infra: Infrastructure): void {
  const { eventStore, readStore, config } = infra;
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    const log = await check(async () => ({ head: await eventStore.head() }));
    const reads = await check(async () => {
      const head = await eventStore.head();
      const positions = [...(await readStore.checkpoints()).values()];
      const lag = head - Math.min(head, ...positions);
      if (lag > config.readyMaxLag) throw new Error(`read models are ${lag} events behind (bound ${config.readyMaxLag})`);
      return { lag };
    });
    const checks = { eventStore: log, projections: reads };
    const ready = Object.values(checks).every((result) => result.ok);
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unready', checks });
  });
}
