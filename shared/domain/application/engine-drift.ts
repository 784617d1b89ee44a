// A service Berth deployed and an operator (or the engine) changed behind its back: scaled to 0 or
// removed. Its status then says `error` (Berth's wanted state and the engine disagree; the user must
// act), not `idle`, which means "stopped by Berth". Only a status such a change set is set back to
// `done` when the engine runs the service again; a deploy, start or stop moves it as always.
import type { Status } from '../../contract/schema.ts';

/** What the engine shows of a service, read in the service's turn. */
export const ENGINE_SIGHTS = ['missing', 'no-replicas', 'replicas'] as const;
export type EngineSight = (typeof ENGINE_SIGHTS)[number];
export type EngineDrift = Exclude<EngineSight, 'replicas'>;

/** The mark of a status set by a change seen on the engine: what was seen. */
export interface Drifted {
  engineDrift?: EngineDrift;
}

export const DRIFTED_STATUS: Status = 'error';

/** The status the engine's sight moves `status` to; null when it stays (Berth's own actions never move it here). */
export function statusSeen(seen: EngineSight, status: Status, drifted: boolean): Status | null {
  if (seen === 'replicas') return drifted && status === DRIFTED_STATUS ? 'done' : null;
  return status === 'done' ? DRIFTED_STATUS : null;
}

/** `state` with its status at `status`: any other move of the status drops the mark. */
export function withStatus<S extends Drifted>(state: S, field: keyof S & string, status: Status): S {
  if (state[field] === status) return state;
  const moved: S = { ...state, [field]: status };
  delete moved.engineDrift;
  return moved;
}

/** `state` after a change seen on the engine moved its status to `status`. */
export function afterEngineChange<S extends Drifted>(state: S, field: keyof S & string, seen: EngineSight, status: Status): S {
  const changed: S = { ...state, [field]: status };
  if (seen === 'replicas') delete changed.engineDrift;
  else changed.engineDrift = seen;
  return changed;
}
