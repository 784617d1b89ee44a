// The reactors over database events: start, stop and reload done on the engine and answered with
// an outcome event (the API waits for it); a removed database's deployments cancelled (a running
// one stopped first), then its service removed (and its data volume, when the operator says so),
// then its deployment records pruned.
import { ENGINES, type Engine } from '@berth/shared/contract/databases';
import { readyOrUndone, removeDataVolume, serviceSpecOf, servicesOf, untilReady } from '@berth/shared/databases/runtime';
import { databaseAggregates, type Database } from '@berth/shared/domain/database/database';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { Reactor } from '../runtime/reactor.ts';
import type { Deployer, DeployerDeps } from '../deployer/deployer.ts';
import { serviceRuntime, type RuntimeActions } from '../deployer/service-runtime.ts';
import { untilStopped } from '../deployer/actions.ts';
import { mustRunTasks } from '../deployer/service-spec.ts';
import { dataVolumeOf, databaseMark } from '@berth/shared/domain/database/service-spec';
import { ownedServices } from '@berth/shared/runtime/owned-services';

/**
 * Its data volume, only when it carries the database's mark. One without (made before the marks,
 * or an operator's) stays: an unmarked volume its service mounted may still be an operator's that
 * a first deploy before the marks mounted, and a volume's data cannot come back.
 */
async function removeOwnDataVolume(infra: Infrastructure, engine: Engine, database: Database): Promise<void> {
  await removeDataVolume(ownedServices(infra.engine, databaseMark(engine, database)), database.appName);
  const kept = dataVolumeOf(database.appName);
  if ((await infra.engine.volumeLabels(kept)) !== null) {
    console.warn(`database ${database.appName} removed; its volume ${kept} was kept: it does not carry the database's mark (made before Berth marked volumes, or not Berth's)`);
  }
}

const deployed = (found: boolean, database: Database) => {
  if (!found) throw new Error(`${database.appName} is not deployed`);
};

function engineActions(infra: Infrastructure, engine: Engine): RuntimeActions<Database> {
  return {
    async start(database) {
      const services = servicesOf(infra, engine, database);
      const before = await services.spec(database.appName);
      deployed(before !== null, database);
      // From its settings as they are now, as its one replica: a port changed or removed while it
      // was stopped is published as saved, not as it was (the old one may be another's by now).
      const generation = await services.upsert(serviceSpecOf(infra, engine, database));
      // One that cannot run goes back to the stopped spec it had, not left retried by the engine forever.
      await readyOrUndone(infra, engine, database, before, generation, undefined,
        (line) => console.warn(`start of ${database.appName}: ${line}`));
    },
    async stop(database) {
      const services = servicesOf(infra, engine, database);
      deployed(await services.scale(database.appName, 0), database);
      // Answered once its container is gone (it has a grace period to flush), as an application's stop.
      await untilStopped({ engine: infra.engine, settings: infra.config }, database.appName);
    },
    async reload(database) {
      const services = servicesOf(infra, engine, database);
      const spec = await services.spec(database.appName);
      if (spec) mustRunTasks(spec);
      const generation = await services.restart(database.appName);
      deployed(generation !== null, database);
      await untilReady(infra, engine, database, undefined, generation!);
    },
    isOnEngine: (database) => servicesOf(infra, engine, database).exists(database.appName),
    async remove(database) {
      await servicesOf(infra, engine, database).remove(database.appName);
      // Retried by the bus while the volume stays in use past removeDataVolume's bound.
      if (infra.config.removeDatabaseVolumes) await removeOwnDataVolume(infra, engine, database);
    },
  };
}

export const databaseActions = (infra: Infrastructure, deps: DeployerDeps, deployer: Deployer): Reactor[] => ENGINES.map((engine) => {
  const aggregate = databaseAggregates[engine] as AnyAggregate;
  return serviceRuntime(deps, deployer, {
    name: `${engine}-runtime`, aggregate, deploymentField: 'databaseId',
  }, engineActions(infra, engine));
});
