// The engine's services as one Berth service may act on them by name: a service of that name
// without the service's mark is not there for it. Stop, start, reload and delete go through this,
// so they leave an object of the same name that Berth did not make alone.
import { EngineError, type ContainerEngine, type ServiceInfo } from '../ports/container-engine.ts';
import { isMarked, type OwnerMark } from '../domain/ownership.ts';

export function ownedServices(engine: ContainerEngine, mark: OwnerMark): ContainerEngine {
  const owned = async (name: string): Promise<ServiceInfo | null> => {
    const info = await engine.inspectService(name);
    return info && isMarked(info.spec.Labels, mark) ? info : null;
  };
  return {
    ...engine,
    inspectService: owned,
    async updateService(name, change) {
      // As the engine answers a name it does not know.
      if (!(await owned(name))) throw new EngineError(`service ${name} not found`, 404);
      return engine.updateService(name, change);
    },
    removeService: async (name) => (await owned(name)) !== null && engine.removeService(name),
    listTasks: async (name) => ((await owned(name)) ? engine.listTasks(name) : []),
  };
}
