// The application operations the reactors carry out: deploy and redeploy answer at once with the
// queued deployment; start, stop and reload answer once the engine did it (bounded wait).
import type { contract } from '@berth/shared/contract/index';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import type { Action } from '@berth/shared/domain/application/status';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { deploymentAggregate, type Deployment } from '@berth/shared/domain/deployment/deployment';
import { badRequest, conflict, unavailable } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import { answersRequest } from '@berth/shared/domain/service-kinds';
import type { Context } from '../context.ts';
import { queueDeployment, waitForEvent } from './deployment-queue.ts';
import type { GroupHandlers } from './kit.ts';

/** Asks the reactors for `action` on the service and answers the record once they did it (bounded wait). */
export async function act(aggregate: AnyAggregate, action: Action, id: string, ctx: Context, named?: { appName: string }) {
  const field = aggregate.idField;
  // reload names the service twice (its id and its appName): both must be the same one's.
  if (named !== undefined) {
    const { appName } = await ctx.mustLoad(aggregate, id, field) as { appName: string };
    if (named.appName !== appName) throw badRequest('appName', `is not the appName of this ${field} (${appName})`);
  }
  const requestId = newId();
  await ctx.execute(aggregate, id, { type: 'RequestAction', data: { [field]: id, action, requestId } });
  const requested = ctx.position;
  const outcome = await waitForEvent(ctx, aggregate.name, id, requested,
    (event) => answersRequest(event, requestId));
  const { appName } = await ctx.mustLoad(aggregate, id, field) as { appName: string };
  if (!outcome) throw conflict(`The ${action} of ${appName} is still in progress after ${ctx.infra.config.actionWaitMs} ms`);
  if (outcome.type.endsWith('ActionFailed')) {
    const { reason, unavailable: engineAway } = outcome.data as { reason: string; unavailable?: true };
    // The engine could not be reached: nothing was done, and the same call may succeed once it is back.
    if (engineAway) throw unavailable(`The ${action} of ${appName} was not done: ${reason}`);
    throw conflict(`names ${appName}, which could not ${action}: ${reason}`, field);
  }
  // What the reactor appended is newer than what this process may hold.
  ctx.forget(aggregate, id);
  return ctx.view(aggregate, await ctx.mustLoad(aggregate, id, field));
}

/** Cancels every queued deployment of the service (the running one goes on); answers the record. */
export async function cleanQueues(aggregate: AnyAggregate, id: string, ctx: Context) {
  const record = await ctx.mustLoad(aggregate, id, aggregate.idField);
  const queued = (await ctx.infra.readStore.find('deployment', aggregate.idField, id))
    .filter((doc) => (doc as unknown as Deployment).status === 'queued');
  for (const doc of queued) {
    const deploymentId = String(doc.deploymentId);
    // Decided against the log: a deployment that started since the read models said `queued` runs on.
    await ctx.execute(deploymentAggregate, deploymentId, { type: 'CancelQueuedDeployment', data: { deploymentId, at: ctx.now } });
  }
  return ctx.view(aggregate, record);
}

const app = applicationAggregate as AnyAggregate;

export const applicationRuntime: GroupHandlers<typeof contract.application> = {
  deploy: (input, ctx) => queueDeployment(ctx, input.applicationId, { kind: 'deploy', title: 'Deploy', trigger: 'account', image: null, rollbackOf: null }),
  redeploy: (input, ctx) => queueDeployment(ctx, input.applicationId, { kind: 'redeploy', title: 'Redeploy', trigger: 'account', image: null, rollbackOf: null }),
  start: (input, ctx) => act(app, 'start', input.applicationId, ctx),
  stop: (input, ctx) => act(app, 'stop', input.applicationId, ctx),
  reload: (input, ctx) => act(app, 'reload', input.applicationId, ctx, input),
  cleanQueues: (input, ctx) => cleanQueues(app, input.applicationId, ctx),
};
