// The engine's objects as one Berth service may act on them by name: a service or a volume of its
// name without the service's mark is not there for it. Stop, start, reload and delete go
// through this, so they leave an object of the same name that Berth did not make alone; an upsert
// makes the spec's named volumes with the mark first, and refuses to mount one that is another's.
import {
  EngineError, ForeignObjectError, type ContainerEngine, type ServiceInfo, type ServiceSpec,
} from '../ports/container-engine.ts';
import { isMarked, isOwnedObject, markLabels, type OwnerMark } from '../domain/ownership.ts';

type Mount = NonNullable<ServiceSpec['TaskTemplate']['ContainerSpec']['Mounts']>[number];

const namedVolumes = (spec: ServiceSpec | undefined): string[] => (spec?.TaskTemplate.ContainerSpec.Mounts ?? [])
  .filter((mount: Mount) => mount.Type === 'volume' && mount.Source).map((mount) => mount.Source);

/**
 * Before the service is written: every named volume of `spec` is the service's (marked, or made
 * before the marks and mounted by its own service `current`), or the upsert fails touching nothing;
 * the missing ones are then made with the mark.
 */
async function claimVolumes(engine: ContainerEngine, mark: OwnerMark, spec: ServiceSpec, current: ServiceInfo | null): Promise<void> {
  const mounted = new Set(namedVolumes(current?.spec));
  const missing: string[] = [];
  for (const name of namedVolumes(spec)) {
    const labels = await engine.volumeLabels(name);
    if (labels === null) missing.push(name);
    else if (!isOwnedObject(labels, mark, mounted.has(name))) throw new ForeignObjectError('volume', name);
  }
  for (const name of missing) await engine.createVolume(name, markLabels(mark));
}

export function ownedServices(engine: ContainerEngine, mark: OwnerMark): ContainerEngine {
  const owned = async (name: string): Promise<ServiceInfo | null> => {
    const info = await engine.inspectService(name);
    return info && isMarked(info.spec.Labels, mark) ? info : null;
  };
  return {
    ...engine,
    inspectService: owned,
    async upsertService(spec, auth) {
      const current = await engine.inspectService(spec.Name);
      // Another's service of the name fails the upsert below: no volume is made for it first.
      if (!current || isMarked(current.spec.Labels, mark)) await claimVolumes(engine, mark, spec, current);
      return engine.upsertService(spec, auth);
    },
    async updateService(name, change) {
      // As the engine answers a name it does not know.
      if (!(await owned(name))) throw new EngineError(`service ${name} not found`, 404);
      return engine.updateService(name, change);
    },
    removeService: async (name) => (await owned(name)) !== null && engine.removeService(name),
    listTasks: async (name) => ((await owned(name)) ? engine.listTasks(name) : []),
    // Only a marked one: one made before the marks may have been an operator's that a first deploy mounted.
    removeVolume: async (name) => isOwnedObject(await engine.volumeLabels(name), mark, false) && engine.removeVolume(name),
  };
}
