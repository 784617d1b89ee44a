// The application operations the reactors carry out: deploy and redeploy answer at once with the
// queued deployment; start, stop and reload answer once the engine did it (bounded wait).
import type { contract } from '@berth/shared/contract/index';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import type { Action } from '@berth/shared/domain/application/status';
import { deploymentAggregate, type Deployment } from '@berth/shared/domain/deployment/deployment';
import { conflict } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import type { Context } from '../context.ts';
import { queueDeployment, waitForEvent } from './deployment-queue.ts';
import type { GroupHandlers } from './kit.ts';

type Id = { applicationId: string };

async function act(action: Action, { applicationId }: Id, ctx: Context) {
  const requestId = newId();
  await ctx.execute(applicationAggregate, applicationId, { type: 'RequestAction', data: { applicationId, action, requestId } });
  const requested = ctx.position;
  const outcome = await waitForEvent(ctx, 'application', applicationId, requested,
    (event) => (event.data as { requestId?: string }).requestId === requestId && event.type !== 'ApplicationActionRequested');
  const application = await ctx.mustLoad(applicationAggregate, applicationId, 'applicationId');
  if (!outcome) throw conflict(`The ${action} of ${application.appName} is still in progress after ${ctx.infra.config.actionWaitMs} ms`);
  if (outcome.type === 'ApplicationActionFailed') {
    throw conflict(`Could not ${action} ${application.appName}: ${(outcome.data as { reason: string }).reason}`, 'applicationId');
  }
  // What the reactor appended is newer than what this process may hold.
  ctx.forget(applicationAggregate, applicationId);
  return ctx.view(applicationAggregate, await ctx.mustLoad(applicationAggregate, applicationId, 'applicationId'));
}

/** Cancels every queued deployment of the application (the running one goes on). */
async function cleanQueues({ applicationId }: Id, ctx: Context) {
  const application = await ctx.mustLoad(applicationAggregate, applicationId, 'applicationId');
  const queued = (await ctx.infra.readStore.find('deployment', 'applicationId', applicationId))
    .filter((doc) => (doc as unknown as Deployment).status === 'queued');
  for (const doc of queued) {
    const deploymentId = String(doc.deploymentId);
    const { state } = await ctx.load(deploymentAggregate, deploymentId);
    if (state?.status !== 'queued') continue;
    await ctx.execute(deploymentAggregate, deploymentId, { type: 'CancelDeployment', data: { deploymentId, at: ctx.now } });
  }
  return ctx.view(applicationAggregate, application);
}

export const applicationRuntime: GroupHandlers<typeof contract.application> = {
  deploy: (input, ctx) => queueDeployment(ctx, input.applicationId, { kind: 'deploy', title: 'Deploy', trigger: 'account', image: null, rollbackOf: null }),
  redeploy: (input, ctx) => queueDeployment(ctx, input.applicationId, { kind: 'redeploy', title: 'Redeploy', trigger: 'account', image: null, rollbackOf: null }),
  start: (input, ctx) => act('start', input, ctx),
  stop: (input, ctx) => act('stop', input, ctx),
  reload: (input, ctx) => act('reload', input, ctx),
  cleanQueues,
};
