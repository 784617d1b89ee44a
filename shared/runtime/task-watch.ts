// The engine never gives up on some tasks: a host port already taken leaves a task pending, a
// missing image is rejected and retried forever, a command that exits is restarted forever. A
// deploy watches its own tasks (those of the spec it wrote): it succeeds once they have run for a
// while, and fails after a bounded wait, or as soon as they keep failing (ending, or rejected by the
// node: an image it cannot get), with the engine's reason. A job's tasks must complete: the bound
// is on the wait for them to run, not on how long they run.
import { EngineError, type ContainerEngine, type TaskInfo } from '../ports/container-engine.ts';
import { containerEnds } from './task-end.ts';

/** The service's restart policy, as far as it says whether an ended task is followed by another. */
export interface RestartPolicy {
  readonly Condition?: string;
  /** Restarts per task; 0 or none: no limit. */
  readonly MaxAttempts?: number;
}

export interface Rollout {
  readonly service: string;
  readonly image: string;
  readonly forceUpdate: number;
  readonly replicas: number;
  /** A job's tasks run to completion: complete is their success, not a failure. */
  readonly job: boolean;
  /**
   * How long each task must have been seen running for the rollout to succeed: a task that exits
   * (a crash, an unhealthy container) is often seen running first.
   */
  readonly steadyMs: number;
  /** A non-job's bound on the whole wait; a job's on each wait for a task to run (a running one holds it off). */
  readonly timeoutMs: number;
  /** The engine's default (restart on any end) when left out. */
  readonly restart?: RestartPolicy;
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
}

/** Polls are fast while a task usually starts (a few seconds), then slow down to spare a busy engine. */
const FIRST_POLL_MS = 50;
const FAST_FOR_MS = 3000;
const LAST_POLL_MS = 500;
/**
 * Failed tasks after which the rollout gives up: one may be a dependency not up yet (a stack's
 * database), which the engine's restart outlives; this many is a task that cannot run.
 */
export const FAILURES_TO_GIVE_UP = 3;
const isOurs = (rollout: Rollout) => (task: TaskInfo) => task.image === rollout.image && task.forceUpdate === rollout.forceUpdate;

/** Why the deploy's tasks do not run, in the engine's words, with what a taken host port means said plainly. */
function reasonOf(tasks: readonly TaskInfo[]): string | null {
  const stuck = [...tasks].reverse().find((task) => task.error || ['pending', 'rejected', 'failed'].includes(task.state));
  return stuck ? plainly(`${stuck.state}: ${stuck.error ?? stuck.message}`) : null;
}

/**
 * The engine's words on a host port already taken, followed by what they mean: they name an
 * endpoint, a proxy or "1 node", not which port nor by whom.
 */
export function plainly(reason: string): string {
  const bound = reason.match(/listen (?:tcp|udp)\d?\s+\S*?:(\d+): bind: address already in use/);
  if (bound) return `${reason} (host port ${bound[1]} is taken on the node by a process the swarm does not run: free it, or publish another port)`;
  if (reason.includes('host-mode port already in use')) {
    return `${reason} (a host port it publishes is taken by another task on every node that could run it: free it, or publish another port)`;
  }
  return reason;
}

/**
 * A task that ended without being asked to: an exit, a node's refusal to start it (the engine
 * retries a missing image every few seconds, for ever), or (but for a job) an end at all.
 */
const ended = (rollout: Rollout) => (task: TaskInfo) =>
  task.state === 'failed' || task.state === 'rejected' || (!rollout.job && task.state === 'complete');
const isUp = (task: TaskInfo) => task.state === 'running' && task.desiredState === 'running';
/** A task the engine has not finished with: it may still run, or complete. */
const isLive = (task: TaskInfo) => !['complete', 'failed', 'rejected', 'shutdown', 'orphaned', 'remove'].includes(task.state);

/**
 * Whether the ended tasks `failed` leave the rollout nothing to wait for: no restart follows an end
 * (condition none), nor a clean exit (on-failure), nor more ends than every task's attempts allow.
 */
function noRetryAfter(rollout: Rollout, failed: readonly TaskInfo[]): boolean {
  if (failed.length === 0) return false;
  const { Condition: condition = 'any', MaxAttempts: attempts = 0 } = rollout.restart ?? {};
  if (condition === 'none') return true;
  if (condition === 'on-failure' && failed.some((task) => task.state === 'complete')) return true;
  // More ends than the tasks have attempts: one task at least has used all its own.
  return attempts > 0 && failed.length > attempts * Math.max(1, rollout.replicas);
}

/** A job is done once `replicas` of its tasks completed and none of them may still run. */
const jobDone = (rollout: Rollout, tasks: readonly TaskInfo[]) =>
  tasks.filter((task) => task.state === 'complete').length >= rollout.replicas && !tasks.some(isLive);

/** Resolves once `replicas` of the deploy's tasks have run `steadyMs` (or completed, for a job); else throws why not. */
export async function waitForRollout(engine: ContainerEngine, rollout: Rollout): Promise<void> {
  if (rollout.replicas === 0) return;
  const startedAt = Date.now();
  let deadline = startedAt + rollout.timeoutMs;
  const endOf = containerEnds(engine);
  const reported = new Set<string>();
  /** When each task was first seen running, by this watch's clock (the engine's may differ). */
  const upSince = new Map<string, number>();
  /** Tasks ended before the watch began (a scale-up's earlier tasks share its spec): not its failures. */
  let earlier: Set<string> | null = null;
  let reason: string | null = null;
  let pause = FIRST_POLL_MS;
  while (Date.now() < deadline) {
    rollout.signal.throwIfAborted();
    const tasks = (await engine.listTasks(rollout.service)).filter(isOurs(rollout));
    const now = Date.now();
    earlier ??= new Set(tasks.filter(ended(rollout)).map((task) => task.id));
    if (rollout.job && jobDone(rollout, tasks)) return;
    // A job's task that runs holds the bound off: it runs as long as it needs (the engine wants it complete, not running).
    if (rollout.job && tasks.some((task) => task.state === 'running')) deadline = now + rollout.timeoutMs;
    const up = new Set(tasks.filter(isUp).map((task) => task.id));
    for (const id of upSince.keys()) if (!up.has(id)) upSince.delete(id);
    for (const id of up) if (!upSince.has(id)) upSince.set(id, now);
    if ([...upSince.values()].filter((since) => now - since >= rollout.steadyMs).length >= rollout.replicas) return;
    const failed = tasks.filter((task) => ended(rollout)(task) && !earlier!.has(task.id));
    const lastFailed = failed.at(-1);
    const containerSays = lastFailed ? await endOf(lastFailed) : null;
    reason = (containerSays && `${lastFailed!.state}: ${containerSays}`) ?? reasonOf(failed.length > 0 ? failed : tasks) ?? endedReason(failed) ?? reason;
    if (reason && !reported.has(reason)) {
      reported.add(reason);
      rollout.log(`engine: ${reason}`);
    }
    if (failed.length >= FAILURES_TO_GIVE_UP) {
      throw new EngineError(`the service's tasks keep ending: ${failed.length} of them did, the last one ${reason ?? 'without a reason'}`);
    }
    if (noRetryAfter(rollout, failed)) {
      throw new EngineError(`the service's tasks ended and its restart policy starts no other: ${failed.length} of them did, the last one ${reason ?? 'without a reason'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    if (Date.now() > startedAt + FAST_FOR_MS) pause = Math.min(LAST_POLL_MS, pause * 1.3);
  }
  throw new EngineError(`the service's tasks did not run within ${rollout.timeoutMs} ms: ${reason ?? 'no task was scheduled'}`);
}

/** A task of a service that ended of itself with no error (exit code 0): said so, since the engine says nothing. */
function endedReason(failed: readonly TaskInfo[]): string | null {
  const last = failed[failed.length - 1];
  return last ? `${last.state}: its command exited (${last.message})` : null;
}
