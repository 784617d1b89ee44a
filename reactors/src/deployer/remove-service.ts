// The engine's removal of a job service leaves the job's running containers running (nothing
// reconciles a task once its service is gone): they are stopped here, so a removal stops what runs.
import { SERVICE_LABEL } from '@berth/shared/ports/container-engine';
import type { EngineWait } from './until.ts';
import { isJob } from './service-spec.ts';

type EngineOnly = Pick<EngineWait, 'engine'>;

/** Removes the service `name` and, when it was a job, stops its containers that still run; false when there was none. */
export async function removeService(deps: EngineOnly, name: string): Promise<boolean> {
  const info = await deps.engine.inspectService(name);
  const removed = await deps.engine.removeService(name);
  if (info && isJob(info.spec)) await stopRunningContainers(deps, name);
  return removed;
}

async function stopRunningContainers(deps: EngineOnly, name: string): Promise<void> {
  const running = (await deps.engine.listContainers({ label: `${SERVICE_LABEL}=${name}` })).filter((container) => container.state === 'running');
  // Each with its own stop signal and grace period, at once: a job that ignores SIGTERM holds only its own grace.
  await Promise.all(running.map((container) => deps.engine.stopContainer(container.containerId)));
}

/** Whether a task of the job `name` has not ended yet: it is still to run, or runs. */
export async function jobRuns(deps: EngineOnly, name: string): Promise<boolean> {
  return (await deps.engine.listTasks(name)).some((task) => task.desiredState !== 'shutdown' && !ENDED.has(task.state));
}

const ENDED: ReadonlySet<string> = new Set(['complete', 'shutdown', 'failed', 'rejected', 'remove', 'orphaned']);
