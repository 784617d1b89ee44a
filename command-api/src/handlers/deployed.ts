// Whether a service was deployed: its engine service, images and (for a database) data volume
// then exist, made from its settings as they were, and some settings can no longer change.
import { deploymentAggregate } from '@berth/shared/domain/deployment/deployment';
import type { Context } from '../context.ts';

// A failed deploy of an application or compose service removed what it created when it was the
// first (the deployers undo it); a database's failed deploy may leave its data volume.
const UNDONE_WHEN_FAILED = new Set(['applicationId', 'composeId']);

/** Whether a deployment in this status may have left things on the engine (queued: it will run). */
const mayHaveLeft = (field: string, status: unknown): boolean =>
  status === 'queued' || status === 'running' || status === 'done' || (status === 'error' && !UNDONE_WHEN_FAILED.has(field));

/** Whether a deployment of the service may have left things on the engine (not one cancelled, nor a failed first one). */
export async function wasDeployed(ctx: Context, serviceId: string): Promise<boolean> {
  const found = await Promise.all(['applicationId', 'composeId', 'databaseId'].map(async (field) =>
    (await ctx.infra.readStore.find(deploymentAggregate.name, field, serviceId)).some((deployment) => mayHaveLeft(field, deployment.status))));
  return found.some(Boolean);
}
