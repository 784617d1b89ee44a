// A database service as the deployer and the database actions drive it, on the ContainerEngine
// port: rolled out from its spec (the image pulled when missing), put back to the spec it had, scaled,
// restarted, removed, and asked why no task of it runs.
import type { StackServiceSpec } from '../domain/compose/stack-spec.ts';
import type { ContainerEngine, ServiceSpec } from '../ports/container-engine.ts';
import { othersImageReason, type OwnerMark } from '../domain/ownership.ts';
import { ownedServices } from '../runtime/owned-services.ts';

export interface DatabaseServices {
  exists(name: string): Promise<boolean>;
  /**
   * Creates the service or updates it to `spec`, rolling its tasks; answers the generation of the
   * tasks that run it (until they do, the previous tasks may still be running).
   */
  upsert(spec: StackServiceSpec): Promise<number>;
  /** The spec the service has now; null when there is no such service. */
  spec(name: string): Promise<ServiceSpec | null>;
  /** Puts the service back to a spec it had (a failed update undone), rolling its tasks: their generation. */
  restore(name: string, spec: ServiceSpec): Promise<number>;
  /** Sets the replicas; false when there is no such service. */
  scale(name: string, replicas: number): Promise<boolean>;
  /** Restarts the tasks with the same spec: the new tasks' generation; null when there is no such service. */
  restart(name: string): Promise<number | null>;
  /** False when there was no such service. */
  remove(name: string): Promise<boolean>;
  /**
   * The engine's words on why no task of the service (of that generation, when given) runs, or null
   * when one runs. A task the engine gave up on (rejected, failed) is shut down at once; of a
   * generation, its error is the reason, so a task that cannot start is told apart from a slow one.
   */
  notRunning(name: string, generation?: number): Promise<string | null>;
}

const generationOf = (spec: ServiceSpec) => spec.TaskTemplate.ForceUpdate ?? 0;

/** An image the engine neither has nor can pull: told apart so a caller that knows why can say what to do. */
export class ImageNotPulled extends Error {
  constructor(readonly reference: string, readonly reason: string) {
    super(`image ${reference} cannot be pulled: ${reason}`);
    this.name = 'ImageNotPulled';
  }
}

/** By name, not instanceof: this module can be loaded twice (by its path and through the workspace package). */
export const isImageNotPulled = (error: unknown): error is ImageNotPulled =>
  error instanceof Error && error.name === 'ImageNotPulled' && typeof (error as Partial<ImageNotPulled>).reference === 'string';

/** One database's service: a service of its name without its mark is none of its (databaseMark). */
export type DatabaseServicesOf = (mark: OwnerMark) => DatabaseServices;

export const databaseServicesOn = (shared: ContainerEngine): DatabaseServicesOf => (mark) => databaseServices(ownedServices(shared, mark), mark);

function databaseServices(engine: ContainerEngine, mark: OwnerMark): DatabaseServices {
  /** Changes an existing service; null when there is none. */
  const update = async (name: string, change: (spec: ServiceSpec) => ServiceSpec): Promise<number | null> =>
    (await engine.inspectService(name)) ? generationOf((await engine.updateService(name, change)).spec) : null;

  /** The image present on this engine, pulled when it is not: the engine's own reason when it cannot be. */
  const ensureImage = async (reference: string): Promise<void> => {
    const labels = await engine.imageLabels(reference);
    if (labels !== null) {
      // A database is no application: no image Berth built or keeps for a service is its.
      const others = othersImageReason(reference, labels, mark.value, null);
      if (others !== null) throw new Error(`the image ${others}`);
      return;
    }
    await engine.pullImage(reference).catch((error: Error) => {
      throw new ImageNotPulled(reference, error.message);
    });
  };

  return {
    exists: async (name) => (await engine.inspectService(name)) !== null,
    spec: async (name) => (await engine.inspectService(name))?.spec ?? null,
    // Its generation moves on, so the restored tasks are told apart from the failed ones.
    restore: async (name, before) => generationOf((await engine.updateService(name, (current) => ({
      ...before, TaskTemplate: { ...before.TaskTemplate, ForceUpdate: generationOf(current) + 1 },
    }))).spec),
    async upsert(spec) {
      await ensureImage(spec.TaskTemplate.ContainerSpec.Image);
      // The stack spec's shapes are the engine's service spec; an existing service's tasks roll.
      return generationOf((await engine.upsertService(spec as unknown as ServiceSpec)).spec);
    },
    scale: (name, replicas) => update(name, (spec) => ({ ...spec, Mode: { Replicated: { Replicas: replicas } } })).then((found) => found !== null),
    restart: (name) => update(name, (spec) => ({ ...spec, TaskTemplate: { ...spec.TaskTemplate, ForceUpdate: generationOf(spec) + 1 } })),
    remove: (name) => engine.removeService(name),
    async notRunning(name, generation) {
      const tasks = (await engine.listTasks(name)).filter((task) => generation === undefined || task.forceUpdate === generation);
      const live = tasks.filter((task) => task.desiredState === 'running');
      if (live.some((task) => task.state === 'running')) return null;
      // Of one generation, the newest task the engine gave up on says why (it is shut down at once).
      const gaveUp = generation === undefined ? [] : tasks.filter((task) => task.state === 'rejected' || task.state === 'failed')
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      const task = gaveUp[0] ?? live[0];
      return task ? `${task.state}: ${task.error || task.message}`.trim() : 'no task scheduled';
    },
  };
}
