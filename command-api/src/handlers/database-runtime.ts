// Deploy, start, stop and reload of a database service: each answers once the engine has done it
// and the database accepts connections (bounded wait), moving the status as behaviour.md says.
// A deploy is a deployment like an application's (recorded, queued, logged, run by the deployer);
// start, stop and reload are asked of the reactors, as an application's are, and act on the
// service that deployment made.
import type { Engine } from '@berth/shared/contract/databases';
import type { RecordedEvent } from '@berth/shared/events/event';
import { databaseAggregates, idFieldOf, type Database } from '@berth/shared/domain/database/database';
import { conflict, DomainError, notFound, unavailable } from '@berth/shared/errors';
import { fold, type AnyAggregate } from '@berth/shared/domain/aggregate';
import { statusAfterDeployment, type Action, type DeploymentStep } from '@berth/shared/domain/application/status';
import type { Context } from '../context.ts';
import { queueFor, waitForEvent, waitForStream } from './deployment-queue.ts';
import { act } from './application-runtime.ts';
import { deploymentAggregate, type Deployment } from '@berth/shared/domain/deployment/deployment';
import { ENDING_EVENTS } from '@berth/shared/domain/deployment/record';

/** A deployment that ended, and not done: the deployer put the service back as it was before it. */
export class DeploymentFailed extends DomainError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

export function databaseRuntime(engine: Engine) {
  const aggregate = databaseAggregates[engine];
  const idField = idFieldOf(engine);
  const anyAggregate = aggregate as AnyAggregate;
  /** Asked of the reactors; answered from the outcome they report. */
  const asked = (action: Action) => (input: Record<string, unknown>, ctx: Context) =>
    act(anyAggregate, action, String(input[idField]), ctx, typeof input.appName === 'string' ? { appName: input.appName } : undefined);

  /**
   * The database as the end of `deployment` left it: the deployer moves its status right after the
   * record (a later deployment may have moved it on since; this answer is about this one).
   */
  async function settledAfter(ctx: Context, id: string, ended: RecordedEvent, deployment: Deployment): Promise<Database | null> {
    const expected = statusAfterDeployment(deployment.status as DeploymentStep, deployment.statusBefore);
    let last: Database | null = null;
    const settled = await waitForStream(ctx, aggregate.name, id, (events) => {
      const moved = events.findIndex((event) => event.position > ended.position && event.type.endsWith('StatusChanged'));
      const database = fold(anyAggregate, moved === -1 ? events : events.slice(0, moved + 1)) as Database | null;
      last = database;
      // Not moved when it had that status already: the decider appends nothing then.
      if (moved === -1 && database && database.applicationStatus !== expected) return null;
      if (moved !== -1) ctx.position = Math.max(ctx.position, events[moved]!.position);
      return { database };
    });
    return settled ? settled.database : last;
  }

  return {
    // Through the deployer, like every deployment: recorded, queued, logged; answered when IT ended
    // (another deployment of the same database, ending meanwhile, says nothing about this one).
    deploy: async (input: Record<string, unknown>, ctx: Context) => {
      const id = String(input[idField]);
      await ctx.mustLoad(aggregate, id, idField);
      const queued = (await queueFor(ctx, { applicationId: null, composeId: null, databaseId: id, databaseType: engine }, {
        kind: 'deploy', title: 'Deploy', trigger: 'account', image: null, rollbackOf: null,
      }))!;
      const deploymentId = String(queued.deploymentId);
      const ended = await waitForEvent(ctx, deploymentAggregate.name, deploymentId, ctx.position, (event) => ENDING_EVENTS.has(event.type));
      if (!ended) {
        const { appName } = await ctx.mustLoad(aggregate, id, idField) as Database;
        throw conflict(`The deploy of ${appName} is still in progress after ${ctx.infra.config.actionWaitMs} ms (deployment ${deploymentId})`);
      }
      ctx.forget(deploymentAggregate, deploymentId);
      const deployment = (await ctx.load(deploymentAggregate, deploymentId)).state as Deployment | null;
      // Pruned, or the database gone: removed while it deployed.
      const database = deployment && await settledAfter(ctx, id, ended, deployment);
      if (!deployment || !database) throw notFound(idField, aggregate.label);
      const reason = deployment.reason ?? 'the deployment did not finish';
      // The engine could not be reached: nothing changed, and the same deploy may succeed once it is back.
      if ((ended.data as { unavailable?: true }).unavailable) throw unavailable(`The deploy of ${database.appName} failed: ${reason}`);
      if (deployment.status !== 'done') throw new DeploymentFailed(`${database.appName}: ${reason}`);
      return ctx.view(aggregate, database);
    },
    start: asked('start'),
    stop: asked('stop'),
    reload: asked('reload'),
  };
}
