// Writes a service spec and watches its tasks; when they do not run (or the deployment is
// cancelled), the service goes back to the spec it had, or away if it had none. The spec written
// carries the deployment's id, so that after a crash the restart finds what the interrupted
// deployment left on the engine and puts it back the same way. When the engine cannot be reached
// to put the service back, the work throws RestorePending: the deployer puts it back once it answers.
// A spec of another mode kind replaces the service (the engine changes no mode in place); a failed
// one brings the old service back the same way. A job is never run again to undo a deployment: a
// failed deployment of a service that was a job leaves what it wrote as it ended, and one whose job
// still runs (cancelled, or out of time) is removed with its tasks.
import { EngineError, type RegistryAuth, type ServiceInfo, type ServiceSpec } from '@berth/shared/ports/container-engine';
import { isUnavailable } from '@berth/shared/ports/unavailable';
import { RestorePending } from './restore-pending.ts';
import type { DeployerDeps } from './deps.ts';
import { expectedTasks, isJob } from './service-spec.ts';
import { putBackOf, recreateService, updatesInPlace } from './recreate.ts';
import { jobRuns, removeService } from './remove-service.ts';
import type { EngineWait } from './until.ts';
import { waitForRollout, type RestartPolicy } from '@berth/shared/runtime/task-watch';
import { DEPLOYMENT_LABEL } from '@berth/shared/domain/deployment/record';


/** The engine, and the bound on its waits (a recreated service's old tasks stopping). */
type RestoreDeps = EngineWait;

export interface WatchJob {
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
}

export interface RolloutJob extends WatchJob {
  readonly deploymentId: string;
}

/** Waits for the tasks of the spec the service has now (image as the engine resolved it). */
export async function waitForService(deps: DeployerDeps, info: ServiceInfo, job: WatchJob): Promise<void> {
  try {
    await waitForRollout(deps.engine, {
      service: info.spec.Name,
      image: info.spec.TaskTemplate.ContainerSpec.Image,
      forceUpdate: info.spec.TaskTemplate.ForceUpdate ?? 0,
      replicas: expectedTasks(info.spec),
      job: isJob(info.spec),
      restart: info.spec.TaskTemplate.RestartPolicy as RestartPolicy | undefined,
      steadyMs: deps.settings.taskSteadyMs,
      timeoutMs: deps.settings.taskStartTimeoutMs,
      signal: job.signal,
      log: job.log,
    });
  } catch (error) {
    throw job.signal.aborted ? error : await withHostPortHint(deps, info.spec, error);
  }
}

/**
 * The engine says only that a host-mode port is in use when a service wants more tasks than there
 * are nodes to take the port: the failure says why, and what to change.
 */
async function withHostPortHint(deps: Pick<DeployerDeps, 'engine'>, spec: ServiceSpec, error: unknown): Promise<unknown> {
  // The watch's own failure (its tasks did not run), by name: not a cancellation nor an engine out of reach.
  if (!(error instanceof Error) || error.name !== 'EngineError') return error;
  const hint = await hostPortHint(deps, spec).catch(() => null);
  const status = (error as Partial<EngineError>).status ?? null;
  return hint ? new EngineError(`${error.message}; ${hint}`, status) : error;
}

/** Why the tasks cannot all run when each needs a node of its own for a host-mode port; null when they fit. */
async function hostPortHint(deps: Pick<DeployerDeps, 'engine'>, spec: ServiceSpec): Promise<string | null> {
  const hostPorts = (spec.EndpointSpec?.Ports ?? []).filter((port) => port.PublishMode === 'host' && port.PublishedPort > 0);
  const replicas = expectedTasks(spec);
  if (hostPorts.length === 0 || replicas < 2) return null;
  const nodes = (await deps.engine.listNodes()).filter((node) => node.availability === 'active' && node.state === 'ready').length;
  if (replicas <= nodes) return null;
  const published = hostPorts.map((port) => port.PublishedPort).join(', ');
  return `a host-mode published port (${published}) takes one task per node: ${replicas} replicas need ${replicas} nodes, and ${nodes} can run tasks; `
    + 'lower replicas or publish in ingress mode';
}

/**
 * The service back to the spec it had before a deployment, or away if the deployment created it; a
 * job's spec is not put back (it would run the previous job again): a failed job stays as it ended,
 * and one that still runs is removed, its tasks stopped.
 */
export async function restore(deps: RestoreDeps, before: ServiceInfo | null, name: string, log: (line: string) => void): Promise<void> {
  if (!before) {
    await removeService(deps, name);
    log(`Removed the service ${name} this deployment created`);
    return;
  }
  const current = await deps.engine.inspectService(name);
  if (isJob(before.spec)) {
    // A failed job ends of itself; a failed service of another mode would restart for ever.
    if (current && !isJob(current.spec)) {
      await removeService(deps, name);
      log(`Removed the service ${name}: it was a job before, and the previous job is not run again`);
    } else if (current && await jobRuns(deps, name)) {
      await removeService(deps, name);
      log(`Removed the service ${name} and stopped this deployment's job: it was a job before, and the previous job is not run again`);
    } else log(`Left the service ${name} as this deployment's tasks ended: it was a job, and the previous job is not run again`);
    return;
  }
  if (!current) {
    // Removed for a recreation whose new service was not made (the engine refused it): made again as it was.
    await deps.engine.upsertService(before.spec);
    log(`Created the previous version of ${name} (${before.spec.TaskTemplate.ContainerSpec.Image}) again`);
    return;
  }
  if (!updatesInPlace(current, before.spec)) {
    // The deployment that wrote the current spec recreates: a crash meanwhile is put back as its own.
    await recreateService(deps, current, before.spec, { deploymentId: current.spec.Labels?.[DEPLOYMENT_LABEL], putBack: before.spec, carry: false });
    log(`Recreated the previous version of ${name} (${before.spec.TaskTemplate.ContainerSpec.Image}) in its own mode`);
    return;
  }
  await deps.engine.updateService(name, (spec) => ({
    ...before.spec, TaskTemplate: { ...before.spec.TaskTemplate, ForceUpdate: (spec.TaskTemplate.ForceUpdate ?? 0) + 1 },
  }));
  log(`Restored the previous version of ${name} (${before.spec.TaskTemplate.ContainerSpec.Image})`);
}

/** Writes the spec: over the service, or in place of it when its mode kind changes. */
async function write(deps: DeployerDeps, before: ServiceInfo | null, spec: ServiceSpec, auth: RegistryAuth | undefined, job: RolloutJob): Promise<ServiceInfo> {
  if (before === null || updatesInPlace(before, spec)) {
    job.log(`${before ? 'Updating' : 'Creating'} the service ${spec.Name} with ${spec.TaskTemplate.ContainerSpec.Image}`);
    return deps.engine.upsertService(spec, auth);
  }
  job.log(`Recreating the service ${spec.Name} with ${spec.TaskTemplate.ContainerSpec.Image}: its mode changes, which the engine does not do in place`);
  return recreateService(deps, before, spec, { deploymentId: job.deploymentId, putBack: before.spec, carry: true, auth });
}

export async function rollOut(deps: DeployerDeps, spec: ServiceSpec, auth: RegistryAuth | undefined, job: RolloutJob): Promise<void> {
  const before = await deps.engine.inspectService(spec.Name);
  job.signal.throwIfAborted();
  const putBack = async (error: unknown): Promise<never> => {
    await restore(deps, before, spec.Name, job.log).catch((failure: unknown) => {
      if (isUnavailable(failure)) throw new RestorePending(error, failure);
      job.log(`Could not restore the service: ${String(failure)}`);
    });
    throw error;
  };
  const info = await write(deps, before, { ...spec, Labels: { ...spec.Labels, [DEPLOYMENT_LABEL]: job.deploymentId } }, auth, job)
    .catch((error: unknown) => {
      // The engine may have taken the spec and its answer been lost: whether it did, it tells once it answers.
      if (isUnavailable(error)) throw new RestorePending(error, error);
      // A recreation that failed half way has stopped or removed the old service; a refused update changed nothing.
      if (before !== null && !updatesInPlace(before, spec)) return putBack(error);
      throw error;
    });
  try {
    await waitForService(deps, info, job);
  } catch (error) {
    await putBack(error);
  }
  job.log(`The service ${spec.Name} runs ${expectedTasks(info.spec)} task(s) of this deployment`);
}

/**
 * After a crash, or a failed rollout the engine was out of reach to put back: each of the services
 * `names` that still has the spec the deployment wrote goes back as restore() puts it back when a
 * rollout fails. Whether the deployment created it or updated it, the engine tells: an updated
 * service keeps the spec before the update. One without the deployment's label was not reached yet,
 * was put back already, or was deployed since (a later deployment's spec wins). Throws when the
 * engine could not be reached for one, after trying the others: the caller tries again, and what
 * was put back meanwhile is skipped by its label then.
 */
export async function restoreInterrupted(deps: RestoreDeps, deploymentId: string, names: readonly string[], log: (line: string) => void): Promise<void> {
  let unreachable: unknown = null;
  for (const name of names) {
    try {
      const info = await deps.engine.inspectService(name);
      if (info?.spec.Labels?.[DEPLOYMENT_LABEL] !== deploymentId) continue;
      // A recreation names what it replaced; an update in place leaves the engine's previous spec.
      const previous = putBackOf(info.spec) ?? info.previousSpec;
      const before = previous ? { ...info, spec: previous } : null;
      await restore(deps, before, name, log);
    } catch (failure) {
      if (isUnavailable(failure)) unreachable ??= failure;
      else log(`Could not restore the service ${name}: ${String(failure)}`);
    }
  }
  if (unreachable !== null) throw unreachable;
}
