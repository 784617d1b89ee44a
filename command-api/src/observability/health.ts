// `/health`: the process answers. `/ready`: the stores answer, the bus too when there is one to
// reach (NATS), and the read models are within a bound of the log's head, so a load balancer sends
// traffic only where reads are current and commands reach the reactors.
import type { FastifyInstance } from 'fastify';
import { countAfter } from '@berth/shared/ports/event-store';
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
      // No checkpoint at all: no projection has applied anything yet, which is the whole log behind.
      const positions = [...(await readStore.checkpoints()).values()];
      const applied = positions.length === 0 ? 0 : Math.min(head, ...positions);
      const lag = await countAfter(eventStore, applied, config.readyMaxLag + 1);
      if (lag > config.readyMaxLag) throw new Error(`read models are ${lag} events behind (bound ${config.readyMaxLag})`);
      return { lag };
    });
    const bus = config.natsUrl ? {
      bus: await check(async () => {
        await (await infra.bus()).check();
        return {};
      }),
    } : {};
    const checks = { eventStore: log, projections: reads, ...bus };
    const ready = Object.values(checks).every((result) => result.ok);
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unready', checks });
  });
}
