// The engine cannot change a service's mode (replicated, global, jobs) in place: a spec of another
// mode kind replaces the service, once the old one's tasks have stopped (they may hold a host port).
import type { RegistryAuth, ServiceInfo, ServiceSpec } from '@berth/shared/ports/container-engine';
import { modeKind } from './service-spec.ts';
import { untilGone, type EngineWait } from './until.ts';

/** Whether `spec` can be written over the service `current` is: not when their mode kinds differ. */
export const updatesInPlace = (current: ServiceInfo | null, spec: ServiceSpec): boolean =>
  current === null || modeKind(current.spec) === modeKind(spec);

/** Removes the service `name`, waits until none of its tasks runs, and creates it with `spec`. */
export async function recreateService(deps: EngineWait, spec: ServiceSpec, auth?: RegistryAuth): Promise<ServiceInfo> {
  await deps.engine.removeService(spec.Name);
  await untilGone(deps, spec.Name);
  return deps.engine.upsertService(spec, auth);
}
