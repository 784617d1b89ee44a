// The reactors role: the durable bus consumers that do the runtime work and report it.
import { deploymentLogsOf } from '@berth/shared/adapters/deployment-logs';
import type { Consumer } from '@berth/shared/ports/bus';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { RunningRole } from '@berth/shared/runtime/role';
import { applicationActions } from './deployer/application-actions.ts';
import { Deployer } from './deployer/deployer.ts';
import { engineWorkOf, type EngineWork } from './deployer/engine.ts';
import { composeRuntime, composeWorkOf } from './compose/engine.ts';
import { composeServices } from './compose/services.ts';
import { databaseServices } from './databases/services.ts';
import { runReactor } from './runtime/reactor.ts';
import { proxyReactor } from './proxy/reactor.ts';
import { reporter } from './runtime/report.ts';
import { notifier } from './notifications/notifier.ts';
import { BackupScheduler } from './backups/scheduler.ts';
import { scheduledBackups } from './backups/tick.ts';

/** Starts the reactors on the infrastructure's bus; `work` is the engine's unless a test gives another. */
export async function startReactors(infra: Infrastructure, work: EngineWork): Promise<RunningRole & { deployer: Deployer }> {
  const bus = await infra.bus();
  const compose = work.compose ?? composeWorkOf(infra);
  const deps = {
    eventStore: infra.eventStore, readStore: infra.readStore, secrets: infra.secrets, clock: infra.clock,
    report: reporter(infra.eventStore, infra.clock), logs: deploymentLogsOf(infra.config.dataDir), run: work.run,
    pruneImages: work.actions.pruneImages,
    composes: composeServices(infra.eventStore, infra.secrets, compose.run),
    databases: databaseServices(infra),
    concurrency: infra.config.deployConcurrency, keep: infra.config.keepDeployments,
  };
  const deployer = new Deployer(deps);
  await deployer.recover();
  const consumers: Consumer[] = [];
  for (const reactor of [deployer.reactor(), applicationActions(deps, deployer, work.actions),
    composeRuntime(deps, deployer, compose.actions), proxyReactor(infra), notifier(infra)]) {
    consumers.push(await runReactor(bus, reactor, (error, event) =>
      console.error(`reactor ${reactor.name} failed on ${event.type} ${event.id}; it comes back later:`, error)));
  }
  // Backups run on their cron schedules, followed from the log (not a bus consumer: every process ticks).
  const backups = new BackupScheduler(infra.eventStore, scheduledBackups(infra), (error) => console.error('scheduled backup failed', error));
  backups.start();
  return {
    name: 'reactors',
    deployer,
    stop: async () => {
      await backups.stop();
      await deployer.stop();
      for (const consumer of consumers) await consumer.stop();
    },
  };
}

export const start = (infra: Infrastructure): Promise<RunningRole> => startReactors(infra, engineWorkOf(infra));
