// Whether a service was deployed: its engine service, images and (for a database) data volume
// then exist, made from its settings as they were, and some settings can no longer change.
import { deploymentAggregate } from '@berth/shared/domain/deployment/deployment';
import type { Context } from '../context.ts';

/** Whether a deployment of the service (one not cancelled before it ran) may have left things on the engine. */
export async function wasDeployed(ctx: Context, serviceId: string): Promise<boolean> {
  const deployments = await Promise.all(['applicationId', 'composeId', 'databaseId']
    .map((field) => ctx.infra.readStore.find(deploymentAggregate.name, field, serviceId)));
  return deployments.flat().some((deployment) => deployment.status !== 'cancelled');
}
