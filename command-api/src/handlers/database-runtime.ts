// Deploy, start, stop and reload of a database service: each answers once the engine has done it
// and the database accepts connections (bounded wait), moving the status as behaviour.md says.
// A deploy is a deployment like an application's (recorded, queued, logged, run by the deployer);
// start, stop and reload act on the service that deployment made.
import type { Engine } from '@berth/shared/contract/databases';
import type { Status } from '@berth/shared/contract/schema';
import { databaseAggregates, idFieldOf, type Database } from '@berth/shared/domain/database/database';
import { conflict, DomainError } from '@berth/shared/errors';
import { untilReady } from '@berth/shared/databases/runtime';
import type { Context } from '../context.ts';
import type { Handler } from './kit.ts';
import { queueFor, waitForEvent } from './deployment-queue.ts';
import { deploymentAggregate, type Deployment } from '@berth/shared/domain/deployment/deployment';

export function databaseRuntime(engine: Engine) {
  const aggregate = databaseAggregates[engine];
  const idField = idFieldOf(engine);

  const setStatus = async (ctx: Context, id: string, applicationStatus: Status) =>
    (await ctx.execute(aggregate, id, { type: 'ChangeDatabaseStatus', data: { [idField]: id, applicationStatus } })).after as Database;

  /** Runs `work` with the status at `running`, then `done`, or `error` and a CONFLICT with the reason. */
  const acting = (work: (ctx: Context, database: Database) => Promise<void>, after: Status = 'done'): Handler<Record<string, unknown>> =>
    async (input, ctx) => {
      const id = String(input[idField]);
      const database = await ctx.mustLoad(aggregate, id, idField) as Database;
      await setStatus(ctx, id, 'running');
      try {
        await work(ctx, database);
      } catch (error) {
        await setStatus(ctx, id, 'error');
        const reason = error instanceof Error ? error.message : String(error);
        throw new DomainError('CONFLICT', `${database.appName}: ${reason}`);
      }
      return ctx.view(aggregate, await setStatus(ctx, id, after));
    };

  const mustExist = (found: boolean, database: Database) => {
    if (!found) throw new Error(`${database.appName} is not deployed`);
  };

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
    start: acting(async (ctx, database) => {
      mustExist(await ctx.infra.databaseServices.scale(database.appName, 1), database);
      await untilReady(ctx.infra, engine, database);
    }),
    stop: acting(async (ctx, database) => {
      mustExist(await ctx.infra.databaseServices.scale(database.appName, 0), database);
    }, 'idle'),
    reload: acting(async (ctx, database) => {
      const generation = await ctx.infra.databaseServices.restart(database.appName);
      mustExist(generation !== null, database);
      await untilReady(ctx.infra, engine, database, undefined, generation!);
    }),
  };
}
