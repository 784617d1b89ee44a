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
  const update = async (name: string, change: (spec: Spec) => Spec): Promise<boolean> => {
    const current = await inspect(name);
    if (!current) return false;
    await docker.getService(name).update({ ...change(current.spec), version: current.version });
    return true;
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
      if (!updated) await docker.createService(spec as never);
    },
    scale: (name, replicas) => update(name, (spec) => ({ ...spec, Mode: { Replicated: { Replicas: replicas } } })),
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
    async notRunning(name) {
      const tasks = await docker.listTasks({ filters: { service: [name], 'desired-state': ['running'] } }) as Array<{
        Status?: { State?: string; Message?: string; Err?: string };
      }>;
      if (tasks.some((task) => task.Status?.State === 'running')) return null;
      const task = tasks[0];
      return task ? `${task.Status?.State ?? 'unknown'}: ${task.Status?.Err || task.Status?.Message || ''}`.trim() : 'no task scheduled';
    },
  };
}
