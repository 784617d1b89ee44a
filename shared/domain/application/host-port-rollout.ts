// A start-first rollout starts each new task before its old one stops. With ports published on the
// host (BERTH_PUBLISH_MODE=host), the new task cannot bind a port the old one still holds, so every
// deploy would wait and fail: the pair is refused on save, whichever of the two comes second.
import { badRequest } from '../../errors.ts';
import type { Application } from './record.ts';

type Rollouts = Partial<Pick<Application, 'updateConfigOrch' | 'rollbackConfigOrch'>>;

const WHY = 'a new task could not bind a port its old one still holds, so no deploy would succeed';

/** The rollout of `settings` that is start-first, if any. */
export const startFirstRollout = (settings: Rollouts) =>
  (['updateConfigOrch', 'rollbackConfigOrch'] as const).find((name) => settings[name]?.Order === 'start-first');

/**
 * BAD_REQUEST when a rollout of `settings` is start-first while the application publishes ports on
 * the host: naming `portField` when a port is being added, or else the rollout's Order.
 */
export function mustNotStartFirstOnHostPorts(settings: Rollouts, publishesOnHost: boolean, portField?: string): void {
  if (!publishesOnHost) return;
  const rollout = startFirstRollout(settings);
  if (rollout === undefined) return;
  if (portField) throw badRequest(portField, `cannot be published on the host while ${rollout}.Order is start-first: ${WHY} (set it to stop-first first)`);
  throw badRequest(`${rollout}.Order`, `must not be start-first while the application publishes ports on the host: ${WHY} (use stop-first)`);
}
