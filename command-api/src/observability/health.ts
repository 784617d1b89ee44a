// `/health`: the process answers. `/ready`: the stores answer, the bus too when there is one to
// reach (NATS), and the read models are within a bound of the log's head, so a load balancer sends
// traffic only where reads are current and commands reach the reactors.
import type { FastifyInstance } from 'fastify';
import { countAfter } from '@berth/shared/ports/event-store';
import { bounded, secondsBehind } from './lag.ts';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { messageOf } from '@berth/shared/errors';

type Check = { ok: true; [detail: string]: unknown } | { ok: false; reason: string };

/** How long one check may take: a store that stops answering must make /ready say so, not hang it. */
const CHECK_BOUND_MS = 3000;

async function check(what: string, run: () => Promise<Record<string, unknown>>): Promise<Check> {
  try {
    return { ok: true, ...(await bounded(run(), CHECK_BOUND_MS, what)) };
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  }
}

export function health(app: FastifyInstance, infra: Infrastructure): void {
  const { eventStore, readStore, config } = infra;
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    // One read of the head serves both checks; the checks run side by side, each within its bound.
    const head = eventStore.head();
    head.catch(() => {});
    const [log, reads, bus] = await Promise.all([
      check('the event store', async () => ({ head: await head })),
      check('the read models', async () => {
        // No checkpoint at all: no projection has applied anything yet, which is the whole log behind.
        const positions = [...(await readStore.checkpoints()).values()];
        const applied = positions.length === 0 ? 0 : Math.min(await head, ...positions);
        const lag = await countAfter(eventStore, applied, config.readyMaxLag + 1);
        if (lag > config.readyMaxLag) throw new Error(`read models are ${lag} events behind (bound ${config.readyMaxLag})`);
        // Few events behind for long is a projections role that stopped (at low traffic the count never grows).
        const seconds = lag === 0 ? 0 : await secondsBehind(eventStore, applied, infra.clock.now().getTime());
        if (seconds > config.readyMaxLagSeconds) {
          throw new Error(`read models are ${lag} events behind, the oldest from ${Math.round(seconds)} s ago (bound ${config.readyMaxLagSeconds} s)`);
        }
        return { lag, lagSeconds: seconds };
      }),
      config.natsUrl ? check('the bus (NATS)', async () => {
        await (await infra.bus()).check();
        return {};
      }) : null,
    ]);
    const checks = { eventStore: log, projections: reads, ...(bus ? { bus } : {}) };
    const ready = Object.values(checks).every((result) => result.ok);
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unready', checks });
  });
}
