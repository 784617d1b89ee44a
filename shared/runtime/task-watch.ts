// The engine never gives up on some tasks: a host port already taken leaves a task pending, a
// missing image is rejected and retried forever. A deploy watches its own tasks (those of the
// spec it wrote) and fails after a bounded wait with the engine's last reason.
import { EngineError, type ContainerEngine, type TaskInfo } from '../ports/container-engine.ts';

export interface Rollout {
  readonly service: string;
  readonly image: string;
  readonly forceUpdate: number;
  readonly replicas: number;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
}

/** Polls are fast while a task usually starts (a few seconds), then slow down to spare a busy engine. */
const FIRST_POLL_MS = 50;
const FAST_FOR_MS = 3000;
const LAST_POLL_MS = 500;
const isOurs = (rollout: Rollout) => (task: TaskInfo) => task.image === rollout.image && task.forceUpdate === rollout.forceUpdate;

/** Why the deploy's tasks do not run, in the engine's words. */
function reasonOf(tasks: readonly TaskInfo[]): string | null {
  const stuck = [...tasks].reverse().find((task) => task.error || ['pending', 'rejected', 'failed'].includes(task.state));
  return stuck ? `${stuck.state}: ${stuck.error ?? stuck.message}` : null;
}

/** Resolves once `replicas` of the deploy's tasks run (or completed, for a job); else throws why not. */
export async function waitForRollout(engine: ContainerEngine, rollout: Rollout): Promise<void> {
  if (rollout.replicas === 0) return;
  const deadline = Date.now() + rollout.timeoutMs;
  const reported = new Set<string>();
  let reason: string | null = null;
  let pause = FIRST_POLL_MS;
  while (Date.now() < deadline) {
    rollout.signal.throwIfAborted();
    const tasks = (await engine.listTasks(rollout.service)).filter(isOurs(rollout));
    const up = tasks.filter((task) => (task.state === 'running' && task.desiredState === 'running') || task.state === 'complete');
    if (up.length >= rollout.replicas) return;
    reason = reasonOf(tasks) ?? reason;
    if (reason && !reported.has(reason)) {
      reported.add(reason);
      rollout.log(`engine: ${reason}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    if (Date.now() > deadline - rollout.timeoutMs + FAST_FOR_MS) pause = Math.min(LAST_POLL_MS, pause * 1.3);
  }
  throw new EngineError(`the service's tasks did not run within ${rollout.timeoutMs} ms: ${reason ?? 'no task was scheduled'}`);
}
