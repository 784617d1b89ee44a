// What a task's container says of its end that the task does not: the engine reports a container
// its health check found unhealthy as a plain end (it stops it, and the command exits), and an
// out-of-memory kill as a bare exit code.
import type { ContainerEngine, TaskInfo } from '../ports/container-engine.ts';

/** The part of the engine's container inspection read here. */
interface EndedContainer {
  State?: { OOMKilled?: boolean; ExitCode?: number; Health?: { Status?: string; Log?: Array<{ ExitCode?: number; Output?: string }> } };
  HostConfig?: { Memory?: number };
}

const MIB = 1024 * 1024;
const inMiB = (bytes: number) => `${Math.round((bytes / MIB) * 10) / 10} MiB`;

/** The container's own reason for its end (unhealthy, out of memory); null when it has none to add, or is out of reach (another node's). */
export function endOfContainer(container: EndedContainer | null): string | null {
  const state = container?.State;
  if (state?.OOMKilled) {
    const limit = container?.HostConfig?.Memory;
    return `ran out of memory${limit ? ` (its limit: ${inMiB(limit)})` : ''} and was killed (exit ${state.ExitCode ?? 137})`;
  }
  if (state?.Health?.Status === 'unhealthy') {
    const last = state.Health.Log?.at(-1);
    const output = last?.Output?.trim().slice(0, 200);
    return `unhealthy: its health check failed${last ? ` (exit ${last.ExitCode}${output ? `: ${output}` : ''})` : ''}`;
  }
  return null;
}

/**
 * A container killed (137) but not yet marked out of memory may be marked a moment later: the
 * engine learns of the kill by an event of its own, which can come after the exit. Asked again
 * this many times, this far apart.
 */
const OOM_MARK_TRIES = 5;
const OOM_MARK_PAUSE_MS = 200;

async function endOf(engine: Pick<ContainerEngine, 'inspectContainer'>, containerId: string): Promise<string | null> {
  for (let tries = 1; ; tries++) {
    const found = await engine.inspectContainer(containerId).catch(() => null) as EndedContainer | null;
    const killedUnmarked = found?.State?.ExitCode === 137 && !found.State.OOMKilled;
    if (!killedUnmarked || tries === OOM_MARK_TRIES) return endOfContainer(found);
    await new Promise((resolve) => setTimeout(resolve, OOM_MARK_PAUSE_MS));
  }
}

/** Asks each ended task's container once why it ended. */
export function containerEnds(engine: Pick<ContainerEngine, 'inspectContainer'>) {
  const asked = new Map<string, Promise<string | null>>();
  return (task: TaskInfo): Promise<string | null> => {
    const { containerId } = task;
    if (!containerId) return Promise.resolve(null);
    if (!asked.has(task.id)) asked.set(task.id, endOf(engine, containerId));
    return asked.get(task.id)!;
  };
}
