// The status machine of a service (behaviour.md): what its status becomes after each thing the
// runtime did. `null` leaves the status as it is.
import type { Status } from '../../contract/schema.ts';
import { conflict } from '../../errors.ts';

export const ACTIONS = ['start', 'stop', 'reload'] as const;
export type Action = (typeof ACTIONS)[number];

export type DeploymentStep = 'started' | 'done' | 'error' | 'cancelled';

/** After a deployment step; a cancelled deployment gives the service back the status it had. */
export function statusAfterDeployment(step: DeploymentStep, statusBefore: Status | null): Status {
  switch (step) {
    case 'started': return 'running';
    case 'done': return 'done';
    case 'error': return 'error';
    case 'cancelled': return statusBefore ?? 'idle';
  }
}

/**
 * What a deployment's step moves the status `current` to, or null when it is that already. The
 * service's actions wait for its running deployment (reactors' deployment queue), so none lands
 * between a deployment's start and its end.
 */
export function statusFollowing(step: DeploymentStep, statusBefore: Status | null, current: Status): Status | null {
  const next = statusAfterDeployment(step, statusBefore);
  return next === current ? null : next;
}

/**
 * An action's reported outcome, settled: the request it answers, whether it succeeded, and the
 * status the service is left with (`current` when the action does not move it).
 */
export function settleAction<R extends { action: Action }>(outcome: R & ActionOutcome, current: Status) {
  const { reason, expired, ...request } = outcome;
  // One never done (asked before a stop of Berth, too long ago to do now, or with the engine away) leaves the status alone.
  const done = !expired && !outcome.unavailable;
  return { request, reason, status: (done ? statusAfterAction(outcome.action, reason === null) : null) ?? current };
}

/**
 * What the reactors report of a request: null, or why it failed; `expired` when it was never done;
 * `unavailable` when what it needed (the engine) could not be reached, so the caller may try again.
 */
export interface ActionOutcome {
  readonly reason: string | null;
  readonly expired?: boolean;
  readonly unavailable?: true;
}

/**
 * Refuses an action the status leaves nothing to do for, before the reactors are asked: a reload
 * restarts the running tasks, and an idle service (stopped, or never deployed) has none.
 */
export function mustBeActionable(action: Action, status: Status, idField: string): void {
  if (action === 'reload' && status === 'idle') {
    throw conflict('names a service that is idle (stopped, or never deployed): it has no running tasks to reload; start or deploy it', idField);
  }
}

/** After an action on the engine: succeeded, or failed (with the engine's reason). */
export function statusAfterAction(action: Action, succeeded: boolean): Status | null {
  switch (action) {
    case 'stop': return succeeded ? 'idle' : null;
    case 'start': return succeeded ? 'done' : null;
    case 'reload': return succeeded ? 'done' : 'error';
  }
}
