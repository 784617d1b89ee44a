// Deploy, start, stop and reload of a database service: each answers once the engine has done it
// and the database accepts connections (bounded wait), moving the status as behaviour.md says.
// A deploy is a deployment like an application's (recorded, queued, logged, run by the deployer);
// start, stop and reload are asked of the reactors, as an application's are, and act on the
// service that deployment made.
import type { Engine } from '@berth/shared/contract/databases';
import type { Status } from '@berth/shared/contract/schema';
import { databaseAggregates, idFieldOf, type Database } from '@berth/shared/domain/database/database';
import { conflict } from '@berth/shared/errors';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import type { Action } from '@berth/shared/domain/application/status';
import type { Context } from '../context.ts';
import { queueFor, waitForEvent } from './deployment-queue.ts';
import { act } from './application-runtime.ts';
import { deploymentAggregate, type Deployment } from '@berth/shared/domain/deployment/deployment';

export function databaseRuntime(engine: Engine) {
  const aggregate = databaseAggregates[engine];
  const idField = idFieldOf(engine);
  const anyAggregate = aggregate as AnyAggregate;
  /** Asked of the reactors; answered from the outcome they report. */
  const asked = (action: Action) => (input: Record<string, unknown>, ctx: Context) => act(anyAggregate, action, String(input[idField]), ctx);

  return {
    // Through the deployer, like every deployment: recorded, queued, logged; answered when it ended.
    deploy: async (input: Record<string, unknown>, ctx: Context) => {
      const id = String(input[idField]);
      await ctx.mustLoad(aggregate, id, idField);
      const queued = (await queueFor(ctx, { applicationId: null, composeId: null, databaseId: id, databaseType: engine }, {
        kind: 'deploy', title: 'Deploy', trigger: 'account', image: null, rollbackOf: null,
      }))!;
      // Its end as the database's status shows it: the deployer moves the status after the record.
      const settled = await waitForEvent(ctx, aggregate.name, id, ctx.position, (event) =>
        event.type.endsWith('StatusChanged') && (event.data as { applicationStatus: Status }).applicationStatus !== 'running');
      ctx.forget(aggregate, id);
      const database = await ctx.mustLoad(aggregate, id, idField) as Database;
      const deploymentId = String(queued.deploymentId);
      if (!settled) throw conflict(`The deploy of ${database.appName} is still in progress after ${ctx.infra.config.actionWaitMs} ms (deployment ${deploymentId})`);
      ctx.forget(deploymentAggregate, deploymentId);
      const deployment = (await ctx.load(deploymentAggregate, deploymentId)).state as Deployment | null;
      if (deployment?.status !== 'done') throw conflict(`${database.appName}: ${deployment?.reason ?? 'the deployment did not finish'}`);
      return ctx.view(aggregate, database);
    },
    start: asked('start'),
    stop: asked('stop'),
    reload: asked('reload'),
  };
}
