// Whether an application publishes ports on the host: it has a port, and services publish theirs
// in host mode (BERTH_PUBLISH_MODE=host), not through the routing mesh.
import { portAggregate } from '@berth/shared/domain/port/port';
import type { Context } from '../context.ts';

export const publishesOnHost = async (ctx: Context, applicationId: string): Promise<boolean> =>
  ctx.infra.config.publishMode === 'host' && (await ctx.list(portAggregate, 'applicationId', applicationId)).length > 0;
