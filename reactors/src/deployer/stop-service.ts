// A stop for every mode: a replicated service is scaled to 0; a global or job service has no scale,
// so it is removed (a start or deploy brings it back). Shared by applications and compose stacks.
import type { ServiceInfo } from '@berth/shared/ports/container-engine';
import type { EngineWait } from './until.ts';
import { isScalable } from './service-spec.ts';
import { removeService } from './remove-service.ts';

export async function stopService(deps: Pick<EngineWait, 'engine'>, info: ServiceInfo): Promise<void> {
  if (!isScalable(info.spec)) await removeService(deps, info.spec.Name);
  else await deps.engine.updateService(info.spec.Name, (spec) => ({ ...spec, Mode: { Replicated: { Replicas: 0 } } }));
}
