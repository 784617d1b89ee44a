// Whether a service was deployed: its engine service, images and (for a database) data volume
// then exist, made from its settings as they were, and some settings can no longer change.
import { deploymentAggregate } from '@berth/shared/domain/deployment/deployment';
import type { Context } from '../context.ts';

/** The deployments the read models keep of the service, whatever its kind. */
async function deploymentsOf(ctx: Context, serviceId: string) {
  const deployments = await Promise.all(['applicationId', 'composeId', 'databaseId']
    .map((field) => ctx.infra.readStore.find(deploymentAggregate.name, field, serviceId)));
  return deployments.flat();
}

/** Whether a deployment of the service (one not cancelled before it ran) may have left things on the engine. */
export const wasDeployed = async (ctx: Context, serviceId: string): Promise<boolean> =>
  (await deploymentsOf(ctx, serviceId)).some((deployment) => deployment.status !== 'cancelled');

/** Whether a deployment of the service ended `done`: the engine may still run what it deployed (a later one that failed put it back). */
export const hasRun = async (ctx: Context, serviceId: string): Promise<boolean> =>
  (await deploymentsOf(ctx, serviceId)).some((deployment) => deployment.status === 'done');
