// Deploy, start, stop and reload of a database service: each answers once the engine has done it
// and the database accepts connections (bounded wait), moving the status as behaviour.md says.
import type { Engine } from '@berth/shared/contract/databases';
import type { Status } from '@berth/shared/contract/schema';
import { databaseAggregates, idFieldOf, type Database } from '@berth/shared/domain/database/database';
import { profileOf } from '@berth/shared/domain/database/profile';
import { databaseServiceSpec } from '@berth/shared/domain/database/service-spec';
import { DomainError } from '@berth/shared/errors';
import type { Context } from '../context.ts';
import type { Handler } from './kit.ts';

const READY_TIMEOUT_MS = 120_000;

export function databaseRuntime(engine: Engine) {
  const aggregate = databaseAggregates[engine];
  const idField = idFieldOf(engine);
  const profile = (ctx: Context, database: Database) => profileOf(engine, database.containerImage, ctx.infra.config.databaseProfiles);

  const setStatus = async (ctx: Context, id: string, applicationStatus: Status) =>
    (await ctx.execute(aggregate, id, { type: 'ChangeDatabaseStatus', data: { [idField]: id, applicationStatus } })).after as Database;

  /** Resolves once a task runs and the engine's readiness check passes; else the engine's reason. */
  async function ready(ctx: Context, database: Database): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    // A task that never starts (its host port taken) stays pending forever: bounded like an application's.
    const startBy = Date.now() + ctx.infra.config.taskStartTimeoutMs;
    let reason = 'no task started';
    while (Date.now() < deadline) {
      const notRunning = await ctx.infra.databaseServices.notRunning(database.appName);
      if (notRunning === null) {
        const check = await ctx.infra.taskExec.exec(database.appName, profile(ctx, database).ready, {}).catch(() => null);
        if (check?.exitCode === 0) return;
        reason = 'the engine does not accept connections yet';
      } else {
        reason = notRunning;
        // The engine would retry a task it cannot start forever (a missing image): fail now, with its words.
        if (/^(rejected|failed)/.test(notRunning) || Date.now() > startBy) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`${database.appName} is not running: ${reason}`);
  }

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

  const credentials = (ctx: Context, database: Database) => ({
    databaseName: database.databaseName, databaseUser: database.databaseUser,
    databasePassword: database.databasePassword && ctx.secrets.open(database.databasePassword),
    databaseRootPassword: database.databaseRootPassword && ctx.secrets.open(database.databaseRootPassword),
  });
  const mustExist = (found: boolean, database: Database) => {
    if (!found) throw new Error(`${database.appName} is not deployed`);
  };

  return {
    deploy: acting(async (ctx, database) => {
      const created = !(await ctx.infra.databaseServices.exists(database.appName));
      await ctx.infra.databaseServices.upsert(databaseServiceSpec(engine, database, credentials(ctx, database), profile(ctx, database)));
      // A first deploy that cannot start leaves nothing behind (the volume stays, empty or not).
      await ready(ctx, database).catch(async (error: unknown) => {
        if (created) await ctx.infra.databaseServices.remove(database.appName);
        throw error;
      });
    }),
    start: acting(async (ctx, database) => {
      mustExist(await ctx.infra.databaseServices.scale(database.appName, 1), database);
      await ready(ctx, database);
    }),
    stop: acting(async (ctx, database) => {
      mustExist(await ctx.infra.databaseServices.scale(database.appName, 0), database);
    }, 'idle'),
    reload: acting(async (ctx, database) => {
      mustExist(await ctx.infra.databaseServices.restart(database.appName), database);
      await ready(ctx, database);
    }),
  };
}
