// The deployment group (beyond the spec): list, read, follow, cancel, roll back.
import { deploymentLogsOf } from '@berth/shared/adapters/deployment-logs';
import type { contract } from '@berth/shared/contract/index';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { composeAggregate } from '@berth/shared/domain/compose/compose';
import { databaseAggregates } from '@berth/shared/domain/database/database';
import { deploymentAggregate, FINISHED, type Deployment } from '@berth/shared/domain/deployment/deployment';
import { ENDING_EVENTS } from '@berth/shared/domain/deployment/record';
import { badRequest, conflict, notFound } from '@berth/shared/errors';
import type { Context } from '../context.ts';
import { LogSoFar } from './deployment-log-answer.ts';
import { FollowedLog } from './deployment-logs.ts';
import { queueDeployment, waitForEvent } from './deployment-queue.ts';
import type { GroupHandlers } from './kit.ts';

/** The services whose deployments are listed by each field: a database id is of one of the five kinds. */
const OWNERS: Record<'applicationId' | 'composeId' | 'databaseId', { what: string; aggregates: readonly AnyAggregate[] }> = {
  applicationId: { what: 'Application', aggregates: [applicationAggregate] },
  composeId: { what: 'Compose', aggregates: [composeAggregate] },
  databaseId: { what: 'Database', aggregates: Object.values(databaseAggregates) },
};

async function all(input: { applicationId?: string; composeId?: string; databaseId?: string }, ctx: Context) {
  const given = (['applicationId', 'composeId', 'databaseId'] as const).filter((field) => input[field] !== undefined);
  if (given.length !== 1) throw badRequest('applicationId', 'must be given, or else composeId or databaseId: exactly one of the three');
  const field = given[0]!;
  const id = input[field]!;
  // A service that does not exist (or no longer does) is NOT_FOUND, not a service without deployments.
  const { what, aggregates } = OWNERS[field];
  const found = await Promise.all(aggregates.map(async (aggregate) => (await ctx.load(aggregate, id)).state));
  if (!found.some((state) => state)) throw notFound(field, what);
  return ctx.list(deploymentAggregate, field, id);
}

async function cancel({ deploymentId }: { deploymentId: string }, ctx: Context) {
  const { after } = await ctx.execute(deploymentAggregate, deploymentId, { type: 'CancelDeployment', data: { deploymentId, at: ctx.now } });
  if (after && !FINISHED.has(after.status)) {
    // A running one stops once its reactor has seen the request: wait (bounded) for its end.
    const ended = await waitForEvent(ctx, 'deployment', deploymentId, ctx.position, (event) =>
      ENDING_EVENTS.has(event.type));
    // Not over yet: answered as start, stop and reload are, not as a success with a record still running.
    // The request is recorded: the deployment ends cancelled once its reactor gets to it.
    if (!ended) throw conflict(`The cancellation of deployment ${deploymentId} is still in progress after ${ctx.infra.config.actionWaitMs} ms`);
    ctx.forget(deploymentAggregate, deploymentId);
  }
  return ctx.view(deploymentAggregate, (await ctx.load(deploymentAggregate, deploymentId)).state);
}

async function rollback({ deploymentId, applicationId }: { deploymentId: string; applicationId?: string }, ctx: Context) {
  const target = await ctx.mustLoad(deploymentAggregate, deploymentId, 'deploymentId') as Deployment;
  if (!target.applicationId) throw badRequest('deploymentId', 'must name a deployment of an application: only those can be rolled back to');
  if (applicationId !== undefined && applicationId !== target.applicationId) {
    throw badRequest('deploymentId', 'names a deployment of another service');
  }
  if (target.status !== 'done' || !target.image) throw badRequest('deploymentId', `must name a successful deployment to roll back to (this one is ${target.status})`);
  return queueDeployment(ctx, target.applicationId, {
    kind: 'rollback', title: `Rollback to ${target.title} of ${target.createdAt}`, trigger: 'account', image: target.image, rollbackOf: deploymentId,
  });
}

async function logs({ deploymentId, follow }: { deploymentId: string; follow?: 'true' | 'false' }, ctx: Context) {
  const deployment = await ctx.mustLoad(deploymentAggregate, deploymentId, 'deploymentId') as Deployment;
  const store = deploymentLogsOf(ctx.infra.config.dataDir);
  if (follow === 'true') {
    return new FollowedLog(store, deploymentId, async () => {
      ctx.forget(deploymentAggregate, deploymentId);
      return (await ctx.load(deploymentAggregate, deploymentId)).state as Deployment | null;
    });
  }
  return new LogSoFar(store, deploymentId, deployment.status);
}

export const deployment: GroupHandlers<typeof contract.deployment> = {
  all,
  one: async (input, ctx) => {
    // From the log: a deployment's status moves while the read model may lag a moment behind.
    ctx.forget(deploymentAggregate, input.deploymentId);
    const { state } = await ctx.load(deploymentAggregate, input.deploymentId);
    if (!state) throw notFound('deploymentId', 'Deployment');
    return ctx.view(deploymentAggregate, state);
  },
  logs,
  cancel,
  rollback,
};
