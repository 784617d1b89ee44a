import type { contract } from '@berth/shared/contract/index';
import { REBUILD_COLLECTION, rebuildAggregate } from '@berth/shared/domain/rebuild/rebuild';
import { notFound } from '@berth/shared/errors';
import type { GroupHandlers } from './kit.ts';
import { consumerLags } from '../observability/lag.ts';

/** How long `projections.rebuild` waits for the projections role to finish before answering `running`. */
const REBUILD_WAIT_MS = 120_000;

export const projections: GroupHandlers<typeof contract.projections> = {
  status: async (_input, ctx) => consumerLags(ctx.infra),
  rebuild: async ({ name }, ctx) => {
    const { readStore } = ctx.infra;
    if (name !== undefined && !(await readStore.checkpoints()).has(name)) throw notFound('name', 'Projection');
    const rebuildId = ctx.newId(rebuildAggregate);
    // The request goes through the log: the projections role, wherever it runs, does the rebuild.
    await ctx.execute(rebuildAggregate, rebuildId, { type: 'RequestRebuild', data: { rebuildId, name: name ?? null, requestedAt: ctx.now } });
    const deadline = Date.now() + REBUILD_WAIT_MS;
    while (Date.now() < deadline) {
      const done = await readStore.get(REBUILD_COLLECTION, rebuildId);
      if (done) return done;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { rebuildId, name: name ?? null, status: 'running', position: ctx.position, documents: 0, ms: REBUILD_WAIT_MS };
  },
};
