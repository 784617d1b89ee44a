// DatabaseServices on dockerode. An update sends the whole spec at the current version, and grows
// ForceUpdate so that an unchanged spec still rolls the tasks.
import type Docker from 'dockerode';
import type { StackServiceSpec } from '../../domain/compose/stack-spec.ts';
import type { DatabaseServices } from '../../ports/database-services.ts';

type Spec = Record<string, any>;

const notFound = (error: unknown) => (error as { statusCode?: number }).statusCode === 404;

export function dockerDatabaseServices(docker: Docker): DatabaseServices {
  const inspect = async (name: string): Promise<{ version: number; spec: Spec } | null> => {
    try {
      const info = await docker.getService(name).inspect();
      return { version: info.Version.Index, spec: info.Spec };
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  };
  /** Answers the generation (ForceUpdate) of the tasks the new spec runs; null when there is no such service. */
  const update = async (name: string, change: (spec: Spec) => Spec): Promise<number | null> => {
    const current = await inspect(name);
    if (!current) return null;
    const next = change(current.spec);
    await docker.getService(name).update({ ...next, version: current.version });
    return next.TaskTemplate?.ForceUpdate ?? 0;
  };
  const forced = (spec: Spec) => ({ ...spec.TaskTemplate, ForceUpdate: (spec.TaskTemplate?.ForceUpdate ?? 0) + 1 });

  /** The image present on this engine, pulled when it is not: the engine's own error when it cannot be. */
  const ensureImage = async (reference: string): Promise<void> => {
    try {
      await docker.getImage(reference).inspect();
      return;
    } catch (error) {
      if (!notFound(error)) throw error;
    }
    const stream = await docker.pull(reference).catch((error: Error) => {
      throw new Error(`image ${reference} cannot be pulled: ${error.message.replace(/^\(HTTP code \d+\) [\w ]+ - /, '')}`);
    });
    await new Promise<void>((resolve, reject) => docker.modem.followProgress(stream, (error: Error | null, lines: Array<{ error?: string }>) => {
      const failed = error?.message ?? lines.find((line) => line.error)?.error;
      if (failed) reject(new Error(`image ${reference} cannot be pulled: ${failed}`)); else resolve();
    }));
  };

  return {
    exists: async (name) => (await inspect(name)) !== null,
    async upsert(spec: StackServiceSpec) {
      await ensureImage(spec.TaskTemplate.ContainerSpec.Image);
      const updated = await update(spec.Name, (current) => ({ ...spec, TaskTemplate: { ...spec.TaskTemplate, ForceUpdate: forced(current).ForceUpdate } }));
      if (updated !== null) return updated;
      await docker.createService(spec as never);
      return 0; // a new service's tasks are its first generation
    },
    scale: async (name, replicas) => (await update(name, (spec) => ({ ...spec, Mode: { Replicated: { Replicas: replicas } } }))) !== null,
    restart: (name) => update(name, (spec) => ({ ...spec, TaskTemplate: forced(spec) })),
    async remove(name) {
      try {
        await docker.getService(name).remove();
        return true;
      } catch (error) {
        if (notFound(error)) return false;
        throw error;
      }
    },
    async notRunning(name, generation) {
      const tasks = (await docker.listTasks({ filters: { service: [name], 'desired-state': ['running'] } }) as Array<{
        Spec?: { ForceUpdate?: number };
        Status?: { State?: string; Message?: string; Err?: string };
      }>).filter((task) => generation === undefined || (task.Spec?.ForceUpdate ?? 0) === generation);
      if (tasks.some((task) => task.Status?.State === 'running')) return null;
      const task = tasks[0];
      return task ? `${task.Status?.State ?? 'unknown'}: ${task.Status?.Err || task.Status?.Message || ''}`.trim() : 'no task scheduled';
    },
  };
}
