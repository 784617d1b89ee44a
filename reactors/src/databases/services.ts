// A database as the deployer runs it: read from its stream when its deployment starts; its
// deployment rolls the service out and waits until the engine accepts connections.
import { credentialsOf, deployDatabase } from '@berth/shared/databases/runtime';
import { databaseAggregates, type Database } from '@berth/shared/domain/database/database';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { load } from '@berth/shared/runtime/execute';
import type { DatabaseServicesOf } from '../deployer/deployer.ts';
import { restoreInterrupted } from '../deployer/rollout.ts';

export function databaseServices(infra: Infrastructure): DatabaseServicesOf {
  return async (engine, databaseId) => {
    const database = (await load(infra.eventStore, databaseAggregates[engine], databaseId)).state as Database | null;
    if (!database) return null;
    const { databasePassword, databaseRootPassword } = credentialsOf(infra, database);
    return {
      appName: database.appName,
      status: database.applicationStatus,
      secrets: [databasePassword, databaseRootPassword].filter((secret): secret is string => !!secret),
      run: async (work) => ({ image: await deployDatabase(infra, engine, database, work.log, work.deploymentId), revision: null }),
      // After a crash mid-deploy: the service back to the spec that served, or away if this deployment made it.
      recover: (deploymentId, log) => restoreInterrupted({ engine: infra.engine, settings: infra.config }, deploymentId, [database.appName], log),
    };
  };
}
