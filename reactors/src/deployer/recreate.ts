// The engine cannot change a service's mode (replicated, global, jobs) in place: a spec of another
// mode kind replaces the service, once the old one's tasks have stopped (they may hold a host port).
// A crash must not leave nothing: the old service is first stopped in place (its spec kept by the
// engine, labelled with the deployment), and the new one carries the spec to put back; a restart
// finds either by the deployment's label and puts back the spec it names (see restoreInterrupted).
import type { RegistryAuth, ServiceInfo, ServiceSpec } from '@berth/shared/ports/container-engine';
import { DEPLOYMENT_LABEL } from '@berth/shared/domain/deployment/record';
import { isJob, isScalable, modeKind } from './service-spec.ts';
import { removeService } from './remove-service.ts';
import { untilGone, type EngineWait } from './until.ts';

/** The spec a deployment's interrupted recreation puts back, as JSON, on the services it wrote. */
export const PUT_BACK_LABEL = 'berth.putBackSpec';

/** A constraint no node meets: a global service keeps its spec and runs no task. */
const ON_NO_NODE = 'node.labels.berth.nowhere==true';

/** Whether `spec` can be written over the service `current` is: not when their mode kinds differ. */
export const updatesInPlace = (current: ServiceInfo | null, spec: ServiceSpec): boolean =>
  current === null || modeKind(current.spec) === modeKind(spec);

const withoutPutBack = (spec: ServiceSpec): ServiceSpec => {
  const { [PUT_BACK_LABEL]: _carried, ...labels } = spec.Labels ?? {};
  return { ...spec, Labels: labels };
};

const carrying = (spec: ServiceSpec, deploymentId: string | undefined, putBack: ServiceSpec): ServiceSpec => ({
  ...spec,
  Labels: {
    ...spec.Labels,
    ...(deploymentId !== undefined && { [DEPLOYMENT_LABEL]: deploymentId }),
    [PUT_BACK_LABEL]: JSON.stringify(withoutPutBack(putBack)),
  },
});

/** The spec the service's labels say to put back when the deployment that wrote it was interrupted; null when they say none. */
export function putBackOf(spec: ServiceSpec): ServiceSpec | null {
  const carried = spec.Labels?.[PUT_BACK_LABEL];
  if (carried === undefined) return null;
  try {
    return JSON.parse(carried) as ServiceSpec;
  } catch {
    return null; // not written by Berth: the engine's previous spec decides
  }
}

/** The spec with no task to run: a replicated service scaled to 0, a global one placed on no node. */
function runningNothing(spec: ServiceSpec): ServiceSpec {
  if (isScalable(spec)) return { ...spec, Mode: { Replicated: { Replicas: 0 } } };
  const placement = (spec.TaskTemplate.Placement ?? {}) as { Constraints?: string[] };
  return { ...spec, TaskTemplate: { ...spec.TaskTemplate, Placement: { ...placement, Constraints: [...(placement.Constraints ?? []), ON_NO_NODE] } } };
}

/**
 * Stops the service `current` in place (a job, which an update would run again, is removed), labelled
 * with the deployment and the spec to put back, waits until none of its tasks runs, and removes it.
 */
async function stopAndRemove(deps: EngineWait, current: ServiceInfo, deploymentId: string | undefined, putBack: ServiceSpec): Promise<void> {
  const name = current.spec.Name;
  if (isJob(current.spec)) {
    await removeService(deps, name);
    return;
  }
  await deps.engine.updateService(name, (spec) => runningNothing(carrying(spec, deploymentId, putBack)));
  await untilGone(deps, name);
  await deps.engine.removeService(name);
}

export interface Recreation {
  /** The deployment that recreates the service: a restart finds what it left by this id. */
  readonly deploymentId: string | undefined;
  /** What a crash before the new service runs puts back. */
  readonly putBack: ServiceSpec;
  /** Whether the new service carries `putBack` too: not when it is what was put back. */
  readonly carry: boolean;
  readonly auth?: RegistryAuth;
}

/** Replaces the service `current` by one created with `spec`, its old tasks stopped first. */
export async function recreateService(deps: EngineWait, current: ServiceInfo, spec: ServiceSpec, recreation: Recreation): Promise<ServiceInfo> {
  const { deploymentId, putBack, carry, auth } = recreation;
  await stopAndRemove(deps, current, deploymentId, putBack);
  return deps.engine.upsertService(carry ? carrying(spec, deploymentId, putBack) : spec, auth);
}
