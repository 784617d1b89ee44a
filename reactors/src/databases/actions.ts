// The reactors over database events: start, stop and reload done on the engine and answered with
// an outcome event (the API waits for it), and a removed database's deployments cancelled and
// pruned. The service itself (and, when asked, its volume) is taken away by `remove` in the API,
// which answers for a volume still in use.
import { ENGINES, type Engine } from '@berth/shared/contract/databases';
import { untilReady } from '@berth/shared/databases/runtime';
import { databaseAggregates, eventTypeOf, type Database } from '@berth/shared/domain/database/database';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { Reactor } from '../runtime/reactor.ts';
import type { Deployer, DeployerDeps } from '../deployer/deployer.ts';
import { serviceRuntime, type RuntimeActions } from '../deployer/service-runtime.ts';

const deployed = (found: boolean, database: Database) => {
  if (!found) throw new Error(`${database.appName} is not deployed`);
};

function engineActions(infra: Infrastructure, engine: Engine): RuntimeActions<Database> {
  const services = infra.databaseServices;
  return {
    async start(database) {
      deployed(await services.scale(database.appName, 1), database);
      await untilReady(infra, engine, database);
    },
    async stop(database) {
      deployed(await services.scale(database.appName, 0), database);
    },
    async reload(database) {
      const generation = await services.restart(database.appName);
      deployed(generation !== null, database);
      await untilReady(infra, engine, database, undefined, generation!);
    },
    remove: async () => {},
  };
}

export const databaseActions = (infra: Infrastructure, deps: DeployerDeps, deployer: Deployer): Reactor[] => ENGINES.map((engine) => {
  const aggregate = databaseAggregates[engine] as AnyAggregate;
  return serviceRuntime(deps, deployer, {
    name: `${engine}-runtime`, aggregate, requested: eventTypeOf(engine, 'ActionRequested'), deleted: eventTypeOf(engine, 'Removed'),
    deploymentField: 'databaseId',
  }, engineActions(infra, engine));
});
