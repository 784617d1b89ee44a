// The reactors role: the durable bus consumers that do the runtime work and report it.
import { deploymentLogsOf } from '@berth/shared/adapters/deployment-logs';
import type { Consumer } from '@berth/shared/ports/bus';
import { waitedFor, type Infrastructure } from '@berth/shared/runtime/infrastructure';
import { runLeased } from '@berth/shared/runtime/leased';
import type { RunningRole } from '@berth/shared/runtime/role';
import { applicationActions } from './deployer/application-actions.ts';
import { Deployer } from './deployer/deployer.ts';
import { engineWorkOf, type EngineWork } from './deployer/engine.ts';
import { composeRuntime, composeWorkOf } from './compose/engine.ts';
import { composeServices } from './compose/services.ts';
import { databaseServices } from './databases/services.ts';
import { databaseActions } from './databases/actions.ts';
import { runReactor } from './runtime/reactor.ts';
import { proxyReactor } from './proxy/reactor.ts';
import { reporter } from './runtime/report.ts';
import { notifier } from './notifications/notifier.ts';
import { BackupScheduler } from './backups/scheduler.ts';
import { scheduledBackups } from './backups/tick.ts';
import { requestedRuns } from './backups/requested.ts';
import { runRecordReactors } from './backups/pruned.ts';
import { failInterruptedRuns } from './backups/interrupted.ts';
import { RunTerm } from './backups/runs.ts';
import { removeLeftKeys } from './deployer/source-git.ts';
import { sourcesDirOf } from '@berth/shared/domain/compose/project-name';
import { isUnavailable } from '@berth/shared/ports/unavailable';
import { engineWatchOf } from './drift/engine-watch.ts';

/**
 * Starts the reactors on the infrastructure's bus; `work` is the engine's unless a test gives another.
 * One reactors process works at a time (a NATS lease when the roles run apart): the deployer's
 * per-service order, the per-stream order of every reactor and the backup schedule each assume it.
 * `watchEngine`: the engine watch (drift/) runs too, which only work on the real engine wants.
 */
export async function startReactors(infra: Infrastructure, work: EngineWork, watchEngine = false): Promise<RunningRole & { readonly deployer: Deployer }> {
  const bus = await waitedFor(infra, 'the bus', infra.bus);
  const compose = work.compose ?? composeWorkOf(infra);
  const report = reporter(infra);
  const deps = {
    eventStore: infra.eventStore, readStore: infra.readStore, secrets: infra.secrets, clock: infra.clock,
    report, logs: deploymentLogsOf(infra.config.dataDir), run: work.run,
    pruneImages: work.actions.pruneImages,
    composes: composeServices(infra.eventStore, infra.secrets, compose.run, report),
    databases: databaseServices(infra),
    concurrency: infra.config.deployConcurrency, keep: infra.config.keepDeployments,
  };
  // A deployer does not start again once stopped: each time the lease is taken, a new one.
  let deployer = new Deployer(deps);
  let stopRunning = async () => {};
  const role = await runLeased(infra, 'reactors', {
    async start() {
      deployer = new Deployer(deps);
      await removeLeftKeys(sourcesDirOf(infra.config.dataDir));
      await deployer.recover();
      await failInterruptedRuns(infra, deps.report);
      const runs = new RunTerm();
      const consumers: Consumer[] = [];
      // The services' runtimes before the deployer: the actions they take up go ahead of the queued deployments.
      for (const reactor of [applicationActions(deps, deployer, work.actions), composeRuntime(deps, deployer, compose.actions),
        ...databaseActions(infra, deps, deployer), deployer.reactor(), requestedRuns(infra, deps.report, runs),
        ...runRecordReactors(infra, deps.report), proxyReactor(infra), notifier(infra)]) {
        // An outage (the engine, a store) says its reason in one line at each retry; anything else is a fault, with its stack.
        consumers.push(await runReactor(bus, reactor, (error, event) =>
          console.error(`reactor ${reactor.name} failed on ${event.type} ${event.id}; it comes back later:`, isUnavailable(error) ? error.message : error)));
      }
      // Backups run on their cron schedules, followed from the log (not a bus consumer).
      const backups = new BackupScheduler(infra.eventStore, scheduledBackups(infra, deps.report, runs), (error) => console.error('scheduled backup failed', error));
      await backups.start();
      const running = deployer;
      // Once the reactors take up what waits: a service's check then comes after the actions asked before.
      const watch = watchEngine ? engineWatchOf(infra, deployer, deps.report) : null;
      watch?.start();
      stopRunning = async () => {
        await watch?.stop();
        await backups.stop();
        await running.stop();
        // Before the consumers, which wait for their handlers: a manual run's handler waits for
        // its run. The term stays ended, so a run delivered meanwhile ends before it begins.
        await runs.end('the reactors stopped in this process while it ran');
        for (const consumer of consumers) await consumer.stop();
      };
    },
    async stop() {
      const stopping = stopRunning;
      stopRunning = async () => {};
      await stopping();
    },
  });
  return { ...role, get deployer() { return deployer; } };
}

export const start = (infra: Infrastructure): Promise<RunningRole> => startReactors(infra, engineWorkOf(infra), true);
