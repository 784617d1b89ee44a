// Writes a service spec and watches its tasks; when they do not run (or the deployment is
// cancelled), the service goes back to the spec it had, or away if it had none. The spec written
// carries the deployment's id, so that after a crash the restart finds what the interrupted
// deployment left on the engine and puts it back the same way.
import type { RegistryAuth, ServiceInfo, ServiceSpec } from '@berth/shared/ports/container-engine';
import type { DeployerDeps } from './deps.ts';
import { expectedTasks } from './service-spec.ts';
import { waitForRollout } from '@berth/shared/runtime/task-watch';
import { DEPLOYMENT_LABEL } from '@berth/shared/domain/deployment/record';


export interface WatchJob {
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
}

export interface RolloutJob extends WatchJob {
  readonly deploymentId: string;
}

/** Waits for the tasks of the spec the service has now (image as the engine resolved it). */
export function waitForService(deps: DeployerDeps, info: ServiceInfo, job: WatchJob): Promise<void> {
  return waitForRollout(deps.engine, {
    service: info.spec.Name,
    image: info.spec.TaskTemplate.ContainerSpec.Image,
    forceUpdate: info.spec.TaskTemplate.ForceUpdate ?? 0,
    replicas: expectedTasks(info.spec),
    timeoutMs: deps.settings.taskStartTimeoutMs,
    signal: job.signal,
    log: job.log,
  });
}

/** The service back to the spec it had before a deployment, or away if the deployment created it. */
export async function restore(deps: Pick<DeployerDeps, 'engine'>, before: ServiceInfo | null, name: string, log: (line: string) => void): Promise<void> {
  if (!before) {
    await deps.engine.removeService(name);
    log(`Removed the service ${name} this deployment created`);
    return;
  }
  await deps.engine.updateService(name, (current) => ({
    ...before.spec, TaskTemplate: { ...before.spec.TaskTemplate, ForceUpdate: (current.TaskTemplate.ForceUpdate ?? 0) + 1 },
  }));
  log(`Restored the previous version of ${name} (${before.spec.TaskTemplate.ContainerSpec.Image})`);
}

export async function rollOut(deps: DeployerDeps, spec: ServiceSpec, auth: RegistryAuth | undefined, job: RolloutJob): Promise<void> {
  const before = await deps.engine.inspectService(spec.Name);
  job.signal.throwIfAborted();
  job.log(`${before ? 'Updating' : 'Creating'} the service ${spec.Name} with ${spec.TaskTemplate.ContainerSpec.Image}`);
  const info = await deps.engine.upsertService({ ...spec, Labels: { ...spec.Labels, [DEPLOYMENT_LABEL]: job.deploymentId } }, auth);
  try {
    await waitForService(deps, info, job);
  } catch (error) {
    await restore(deps, before, spec.Name, job.log).catch((failure: unknown) => job.log(`Could not restore the service: ${String(failure)}`));
    throw error;
  }
  job.log(`The service ${spec.Name} runs ${expectedTasks(info.spec)} task(s) of this deployment`);
}

/**
 * After a crash: each of the services `names` that still has the spec the interrupted deployment
 * wrote goes back as restore() puts it back when a rollout fails. Whether the deployment created it
 * or updated it, the engine tells: an updated service keeps the spec before the update. One without
 * the deployment's label was not reached yet, or was put back already (a second crash meanwhile).
 */
export async function restoreInterrupted(deps: Pick<DeployerDeps, 'engine'>, deploymentId: string, names: readonly string[], log: (line: string) => void): Promise<void> {
  for (const name of names) {
    const info = await deps.engine.inspectService(name);
    if (info?.spec.Labels?.[DEPLOYMENT_LABEL] !== deploymentId) continue;
    const before = info.previousSpec ? { ...info, spec: info.previousSpec } : null;
    await restore(deps, before, name, log).catch((failure: unknown) => log(`Could not restore the service ${name}: ${String(failure)}`));
  }
}
