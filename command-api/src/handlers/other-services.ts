// The other Berth services as a caller sees them, for the rules about what one service may reach
// of the others (proxy routes and addresses, network aliases).
import { applicationAggregate } from '@berth/shared/domain/application/application';
import type { ReachableService } from '@berth/shared/domain/application/proxy-reach';
import { SERVICE_KINDS } from '@berth/shared/domain/service-kinds';
import type { Context } from '../context.ts';

/** Every service but the application itself, of every kind, with whether the caller manages it. */
export async function otherServices(ctx: Context, applicationId: string): Promise<ReachableService[]> {
  const kinds = await Promise.all(SERVICE_KINDS.map(async ({ aggregate }) => (await ctx.infra.readStore.all(aggregate.name))
    .map((doc) => ({ id: String(doc[aggregate.idField]), doc, isApplication: aggregate === applicationAggregate }))));
  return kinds.flat().filter(({ id }) => id !== applicationId).map(({ id, doc, isApplication }) => ({
    appName: String(doc.appName),
    proxyConfig: isApplication && typeof doc.proxyConfig === 'string' ? doc.proxyConfig : null,
    isApplication,
    managed: ctx.canSeeService(id),
  }));
}

