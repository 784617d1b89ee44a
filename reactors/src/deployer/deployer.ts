// The deployer: takes queued deployments from the bus into the queue, runs each through the
// engine work, and reports every step through the deciders (deployment and application status).
// On start it resolves what a crash left behind: a deployment still `running` failed with reason
// "interrupted" (its service's status follows), the queued ones queued again in their order.
// One whose service could not be put back (the engine out of reach) stays `running`, in its
// service's turn, until the engine answers and the service is back (see restore-pending.ts).
import type { DeploymentLogs, LogWriter } from '@berth/shared/adapters/deployment-logs';
import type { SecretBox } from '@berth/shared/crypto/secrets';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import type { Application } from '@berth/shared/domain/application/record';
import { composeAggregate } from '@berth/shared/domain/compose/compose';
import type { Status } from '@berth/shared/contract/schema';
import type { DeploymentStep } from '@berth/shared/domain/application/status';
import type { Engine } from '@berth/shared/contract/databases';
import { databaseAggregates, idFieldOf } from '@berth/shared/domain/database/database';
import {
  deploymentAggregate, FINISHED, INTERRUPTED, lastEndedFirst, serviceFieldOf, serviceOf, type Deployment, type DeploymentCommand, type NewDeployment,
} from '@berth/shared/domain/deployment/deployment';
import { streamName, type RecordedEvent } from '@berth/shared/events/event';
import type { Clock } from '@berth/shared/ports/clock';
import type { EventStore } from '@berth/shared/ports/event-store';
import type { ReadStore } from '@berth/shared/ports/read-store';
import { load } from '@berth/shared/runtime/execute';
import { isUnavailable } from '@berth/shared/ports/unavailable';
import type { Reactor } from '../runtime/reactor.ts';
import type { Report } from '../runtime/report.ts';
import { untilActionsBeforeAnswered } from './actions-first.ts';
import { recordPublishedPorts } from './published-ports.ts';
import { DeploymentQueue } from './queue.ts';
import { HeldEnds } from './held-ends.ts';
import { isRestorePending, restoreWhenReachable } from './restore-pending.ts';
import { secretsOf } from './secrets.ts';
import { strandedDeployments } from './stranded.ts';
import type { DeploymentResult, DeploymentWork, RunDeployment, ServiceActions } from './work.ts';
import { deploymentTag, localRepository } from './images.ts';
import { reasonOf } from './reason.ts';
import { readModelsCaughtUp } from '../runtime/caught-up.ts';

/** A cancelled deployment's last line: the rollout put back what ran before it. */
const CANCELLED_LINE = 'Cancelled: the service stays on its previous version';

/** The service a deployment belongs to (an application, a compose service), as the deployer runs it. */
export interface DeployedService {
  readonly appName: string;
  readonly status: Status;
  /** Opened secrets of the service: its log masks every one. */
  readonly secrets: string[];
  run(work: Omit<DeploymentWork, 'application'>): Promise<DeploymentResult>;
  /** After a crash: what the interrupted deployment `deploymentId` left on the engine put back (see RunDeployment). */
  recover?(deploymentId: string, log: (line: string) => void): Promise<void>;
}

/** A compose service as the deployer runs it, its reports caused by `cause`; null when it was deleted. */
export type ComposeServices = (composeId: string, cause: RecordedEvent | null) => Promise<DeployedService | null>;

/** A database as the deployer runs it; null when it was removed. */
export type DatabaseServicesOf = (engine: Engine, databaseId: string) => Promise<DeployedService | null>;

export interface DeployerDeps {
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly secrets: SecretBox;
  readonly clock: Clock;
  readonly report: Report;
  readonly logs: DeploymentLogs;
  readonly run: RunDeployment;
  readonly pruneImages: ServiceActions['pruneImages'];
  readonly composes: ComposeServices;
  readonly databases: DatabaseServicesOf;
  readonly concurrency: number;
  readonly keep: number;
}

interface Job {
  readonly deploymentId: string;
  readonly serviceId: string;
  /** The event the job's reports are caused by. */
  readonly cause: RecordedEvent | null;
}


/** How a deployment ends: the command that says so, and the step its service's status follows. */
interface Ending {
  readonly command: DeploymentCommand;
  readonly step: Exclude<DeploymentStep, 'started'>;
}

/** The last line of a deployment left `running` by a stop while its service could not be put back. */
const LEFT_RUNNING_LINE = 'Berth stopped before the service could be put back: the next start puts it back, then ends this deployment';

export class Deployer {
  readonly queue: DeploymentQueue<Job>;
  private readonly running = new Map<string, AbortController>();
  private stopping = false;
  /** Aborted by a shutdown: the waits for an unreachable engine stop, their deployments left `running`. */
  private readonly shutdown = new AbortController();
  /** The interrupted deployments whose services are put back once the engine answers (see recover). */
  private readonly restoring = new Set<Promise<void>>();
  /** Ends of deployments with the next one of their service waiting: the status stays `running` meanwhile. */
  private readonly heldEnds = new HeldEnds(({ deployment, step, cause }) => this.follow(deployment, step, cause));

  constructor(private readonly deps: DeployerDeps) {
    this.queue = new DeploymentQueue<Job>(deps.concurrency, (job) => this.runJob(job));
  }

  /**
   * Runs `work` in the service's turn (see DeploymentQueue.alone), the status the last deployment
   * left reported first: an action's outcome then lands after it.
   */
  inTurn<T>(serviceId: string, work: () => Promise<T>, first?: () => Promise<unknown>): Promise<T> {
    return this.queue.alone(serviceId, async () => {
      await this.heldEnds.release(serviceId);
      return work();
    }, first);
  }

  private now = () => this.deps.clock.now().toISOString();

  private async deployment(id: string): Promise<Deployment | null> {
    return (await load(this.deps.eventStore, deploymentAggregate, id)).state as Deployment | null;
  }

  private async follow(deployment: Deployment, step: DeploymentStep, cause: RecordedEvent | null): Promise<void> {
    const { deploymentId, statusBefore, applicationId, composeId, databaseId, databaseType } = deployment;
    const data = { deploymentId, step, statusBefore };
    if (applicationId) await this.deps.report(applicationAggregate, applicationId, { type: 'FollowDeployment', data: { ...data, applicationId } }, cause);
    else if (composeId) await this.deps.report(composeAggregate, composeId, { type: 'FollowDeployment', data: { ...data, composeId } }, cause);
    else if (databaseId && databaseType) {
      await this.deps.report(databaseAggregates[databaseType], databaseId, {
        type: 'FollowDeployment', data: { [idFieldOf(databaseType)]: databaseId, step, statusBefore },
      }, cause);
    }
  }

  private async serviceOf(deployment: Deployment, cause: RecordedEvent | null): Promise<DeployedService | null> {
    if (deployment.composeId) return this.deps.composes(deployment.composeId, cause);
    if (deployment.databaseId && deployment.databaseType) return this.deps.databases(deployment.databaseType, deployment.databaseId);
    const application = (await load(this.deps.eventStore, applicationAggregate, deployment.applicationId!)).state as Application | null;
    const { recover } = this.deps.run;
    return application && {
      appName: application.appName,
      status: application.applicationStatus,
      secrets: await secretsOf(application, this.deps.readStore, this.deps.secrets),
      run: (work) => this.deps.run({ ...work, application }),
      ...(recover && { recover: (deploymentId: string, log: (line: string) => void) => recover({ deploymentId, application, log }) }),
    };
  }

  private async runJob(job: Job): Promise<void> {
    try {
      await this.runDeployment(job);
    } finally {
      // Nothing of the service waits any more, or nothing starts now: the held end is its status.
      if (this.stopping || !this.queue.hasWaiting(job.serviceId)) await this.heldEnds.release(job.serviceId);
    }
  }

  private async runDeployment({ deploymentId, serviceId, cause }: Job): Promise<void> {
    const { report } = this.deps;
    const queued = await this.deployment(deploymentId);
    if (!queued || queued.status !== 'queued') return;
    await this.queue.yieldUntil(serviceOf(queued), () => untilActionsBeforeAnswered(this.deps.eventStore, queued, this.shutdown.signal));
    // Handed out before a shutdown: it stays queued, for the next start, rather than start as Berth stops.
    if (this.stopping) return;
    const service = await this.serviceOf(queued, cause);
    if (!service) {
      await report(deploymentAggregate, deploymentId, { type: 'FailDeployment', data: { deploymentId, at: this.now(), reason: 'the service was deleted' } }, cause);
      // Queued after the removal pruned the service's deployments (a request that raced it): nothing else would remove it.
      await report(deploymentAggregate, deploymentId, { type: 'PruneDeployment', data: { deploymentId } }, cause);
      this.deps.logs.remove(deploymentId);
      return;
    }
    const started = await report<Deployment>(deploymentAggregate, deploymentId, {
      type: 'StartDeployment', data: { deploymentId, at: this.now(), statusBefore: this.heldEnds.statusLeft(serviceId) ?? service.status },
    }, cause);
    if (started.position === 0 || !started.after) return; // cancelled meanwhile, or another reactor took it
    this.heldEnds.drop(serviceId);
    // Abortable from here: a cancellation the reactor hears while the start is reported is not lost,
    // and one asked before this point is read back from the log.
    const controller = new AbortController();
    this.running.set(deploymentId, controller);
    if ((await this.deployment(deploymentId))?.cancelRequested) controller.abort(new Error('cancelled'));
    if (this.stopping) controller.abort(new Error(INTERRUPTED)); // the stop came while it started: failed as interrupted
    await this.follow(started.after, 'started', cause);
    const log = this.deps.logs.writer(deploymentId, service.secrets);
    let ended: Deployment | null = null;
    let step: DeploymentStep = 'done';
    try {
      log.line(`${started.after.title} of ${service.appName} (${queued.kind}) started`);
      controller.signal.throwIfAborted(); // cancelled while it started: nothing to undo
      const result = await service.run({
        deploymentId, kind: queued.kind, image: queued.image, log: (line) => log.line(line), signal: controller.signal,
      });
      // Before the end is reported: once a deployment shows done, the host ports it stopped publishing
      // are free. A failure here is logged, not the deployment's: the rollout is done.
      if (queued.applicationId && result.publishedPorts) {
        await recordPublishedPorts(report, this.deps.readStore, queued.applicationId, deploymentId, result.publishedPorts, cause)
          .catch((error: unknown) => log.line(`Could not record the host ports the service publishes: ${reasonOf(error)}`));
      }
      log.line(`Done: ${result.image}${result.revision ? ` at ${result.revision}` : ''}`);
      ended = (await report<Deployment>(deploymentAggregate, deploymentId, {
        type: 'FinishDeployment', data: { deploymentId, at: this.now(), image: result.image, revision: result.revision },
      }, cause)).after;
      step = 'done';
    } catch (error) {
      const ending = await this.endingOf(error, service, deploymentId, log, controller.signal);
      if (ending) {
        ended = (await report<Deployment>(deploymentAggregate, deploymentId, ending.command, cause)).after;
        step = ending.step;
      }
    } finally {
      this.running.delete(deploymentId);
    }
    if (ended) {
      // The next deployment of the service waits: the status stays `running` until that one ends. Not
      // a database's: its deploy answers with the status its own deployment's end gave it.
      if (!this.stopping && !queued.databaseId && this.queue.hasWaiting(serviceId)) this.heldEnds.hold(serviceId, { deployment: ended, step, cause });
      else await this.follow(ended, step, cause);
    }
    await this.prune(queued, cause, service.appName);
  }

  /**
   * How a deployment whose work threw ends, its last line logged. A service the work could not put
   * back is put back first, the deployment `running` meanwhile; null when Berth stops before that
   * (the deployment stays `running`, and the next start puts the service back as an interrupted one's).
   */
  private async endingOf(error: unknown, service: DeployedService, deploymentId: string, log: LogWriter, signal: AbortSignal): Promise<Ending | null> {
    if (isRestorePending(error) && !(await this.restoreWhenReachable(service, deploymentId, log))) {
      log.line(LEFT_RUNNING_LINE);
      return null;
    }
    const at = this.now(); // once the service is back: the deployment ends then
    if (this.stopping) {
      log.line(`Failed: ${INTERRUPTED} (Berth stopped while it ran)`);
      return { command: { type: 'FailDeployment', data: { deploymentId, at, reason: INTERRUPTED } }, step: 'error' };
    }
    if (signal.aborted) {
      log.line(CANCELLED_LINE);
      return { command: { type: 'ConfirmCancellation', data: { deploymentId, at } }, step: 'cancelled' };
    }
    // The reason is kept in the log and shown by deployment.one: masked as the log's lines are.
    const reason = log.mask(reasonOf(error));
    log.line(`Failed: ${reason}`);
    return { command: { type: 'FailDeployment', data: { deploymentId, at, reason, ...(isUnavailable(error) && { unavailable: true }) } }, step: 'error' };
  }

  /** What the deployment left on the engine put back, once the engine answers; false when Berth stops first. */
  private restoreWhenReachable(service: DeployedService | null, deploymentId: string, log: LogWriter): Promise<boolean> {
    const recover = service?.recover;
    if (!recover) return Promise.resolve(true); // work that leaves nothing behind (a test's)
    return restoreWhenReachable(() => recover(deploymentId, (line) => log.line(line)), (line) => log.line(line), this.shutdown.signal);
  }

  /**
   * Keeps the `keep` finished deployments of the service that ended last, with their logs; an application's
   * pruned deployments take their images along, unless a kept deployment (a rollback target) or
   * the service itself uses them.
   */
  private async prune(deployment: Deployment, cause: RecordedEvent | null, appName: string): Promise<void> {
    const docs = await this.deps.readStore.find('deployment', serviceFieldOf(deployment), serviceOf(deployment)) as unknown as Deployment[];
    const finished = docs.filter((doc) => FINISHED.has(doc.status)).sort(lastEndedFirst);
    const pruned = finished.slice(this.deps.keep);
    for (const old of pruned) {
      await this.deps.report(deploymentAggregate, old.deploymentId, { type: 'PruneDeployment', data: { deploymentId: old.deploymentId } }, cause);
      this.deps.logs.remove(old.deploymentId);
    }
    if (!deployment.applicationId) return;
    const kept = new Set(docs.filter((doc) => !pruned.includes(doc)).map((doc) => doc.image));
    const images = pruned.flatMap((old) => [old.image, `${localRepository({ appName })}:${deploymentTag(old.deploymentId)}`])
      .filter((image): image is string => image !== null && !kept.has(image));
    if (images.length > 0) await this.deps.pruneImages({ appName }, [...new Set(images)]);
  }

  /** Aborts the work of a running deployment (it then reports itself cancelled). */
  abort(deploymentId: string): void {
    this.running.get(deploymentId)?.abort(new Error('cancelled'));
  }

  /** A shutdown: nothing new starts, the running work is stopped and failed as interrupted. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.shutdown.abort(new Error(INTERRUPTED));
    for (const controller of this.running.values()) controller.abort(new Error(INTERRUPTED));
    await this.queue.pause();
    await this.heldEnds.releaseAll();
    await Promise.allSettled([...this.restoring]);
  }

  /**
   * What a crash left: running ones failed as interrupted (their services put back on the engine as
   * a stop puts them back), services left `running` by an ended one moved on as its end says. The
   * queued ones are queued again when the deployer's reactor starts (`requeue`). A service the
   * engine is out of reach to put back is put back later, in its turn (`restoreLater`).
   */
  async recover(): Promise<void> {
    const { readStore, eventStore } = this.deps;
    await readModelsCaughtUp({ eventStore, readStore });
    for (const doc of await readStore.find('deployment', 'status', 'running')) {
      const deploymentId = String(doc.deploymentId);
      if (this.running.has(deploymentId)) continue;
      const deployment = await this.deployment(deploymentId);
      const service = deployment?.status === 'running' ? await this.serviceOf(deployment, null) : null;
      const log = this.deps.logs.writer(deploymentId, service?.secrets ?? []);
      // The engine first: a crash during this leaves the deployment `running`, to be put back at the next start.
      const restored = await (service?.recover?.(deploymentId, (line) => log.line(line)) ?? Promise.resolve()).then(() => true, (error: unknown) => {
        if (isUnavailable(error)) return false;
        log.line(`Could not restore the service: ${reasonOf(error)}`);
        return true;
      });
      if (restored || !deployment) await this.endInterrupted(deploymentId, log);
      else this.restoreLater(deployment, service, log);
    }
    for (const deployment of await strandedDeployments(eventStore, readStore)) {
      await this.follow(deployment, deployment.status as Exclude<DeploymentStep, 'started'>, null);
    }
  }

  /**
   * Puts the interrupted deployment's service back once the engine answers, then ends it. In the
   * service's turn, taken now (before the reactors take up the actions and deployments that wait):
   * a later deployment, a stop or a removal of the service runs after it, and is not undone by it.
   */
  private restoreLater(deployment: Deployment, service: DeployedService | null, log: LogWriter): void {
    const { deploymentId } = deployment;
    const restoring = this.queue.alone(serviceOf(deployment), async () => {
      if (await this.restoreWhenReachable(service, deploymentId, log)) await this.endInterrupted(deploymentId, log);
    }).catch((error: unknown) => console.warn(`the interrupted deployment ${deploymentId} could not be ended: ${reasonOf(error)}`))
      .finally(() => this.restoring.delete(restoring));
    this.restoring.add(restoring);
  }

  /** Ends an interrupted deployment, its service put back: cancelled if that was asked before (a cancel, a stop), else failed. */
  private async endInterrupted(deploymentId: string, log: LogWriter): Promise<void> {
    // Read now: a stop or a cancel asked while the service waited to be put back is what the caller wanted.
    const current = await this.deployment(deploymentId);
    const cancelled = current?.cancelRequested === true;
    // The line before the end: a follower of the log stops reading at the end.
    if (current && !FINISHED.has(current.status)) log.line(cancelled ? CANCELLED_LINE : `Failed: ${INTERRUPTED} (Berth stopped while it ran)`);
    const ended = await this.deps.report<Deployment>(deploymentAggregate, deploymentId, cancelled
      ? { type: 'ConfirmCancellation', data: { deploymentId, at: this.now() } }
      : { type: 'FailDeployment', data: { deploymentId, at: this.now(), reason: INTERRUPTED } }, null);
    if (ended.position > 0 && ended.after) await this.follow(ended.after, cancelled ? 'cancelled' : 'error', null);
  }

  /**
   * The queued deployments queued again, in order. After the services' runtimes took up the actions
   * left unanswered, which thus keep their place ahead of the deployments that wait.
   */
  private async requeue(): Promise<void> {
    const { readStore, eventStore } = this.deps;
    const queued = await readStore.find('deployment', 'status', 'queued') as unknown as Deployment[];
    // By the log's order, as the bus hands them out: a burst shares its createdAt millisecond, and ids order at random within one.
    const queuedAt = new Map(await Promise.all(queued.map(async ({ deploymentId }) =>
      [deploymentId, (await eventStore.readStream(streamName(deploymentAggregate.name, deploymentId))).events[0]?.position ?? Infinity] as const)));
    queued.sort((a, b) => queuedAt.get(a.deploymentId)! - queuedAt.get(b.deploymentId)!);
    for (const deployment of queued) this.queue.add({ deploymentId: deployment.deploymentId, serviceId: serviceOf(deployment), cause: null });
  }

  /** The reactor over deployment events. */
  reactor(): Reactor {
    return {
      name: 'deployer',
      aggregate: 'deployment',
      start: () => this.requeue(),
      handle: async (event) => {
        const { deploymentId } = event.data as { deploymentId: string };
        if (event.type === 'DeploymentQueued') {
          this.queue.add({ deploymentId, serviceId: serviceOf(event.data as NewDeployment), cause: event });
        } else if (event.type === 'DeploymentCancelled') {
          const forgotten = this.queue.forget(deploymentId);
          // The last of its service that waited: the status is what the one before it left.
          if (forgotten && !this.queue.hasJobsOf(forgotten.serviceId)) await this.heldEnds.release(forgotten.serviceId);
        } else if (event.type === 'DeploymentCancellationRequested') {
          this.abort(deploymentId);
        }
      },
    };
  }
}
