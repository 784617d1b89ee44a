// The real work on the container engine (the engine half of the deployer): what the reactors
// role runs in production. Tests may hand the deployer other work; production never does.
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { RunDeployment, ServiceActions } from './work.ts';

export interface EngineWork {
  readonly run: RunDeployment;
  readonly actions: ServiceActions;
}

const missing = async (): Promise<never> => {
  throw new Error('the container engine adapter is not part of this build yet');
};

/** Replaced by the dockerode-backed work when the engine half lands. */
export function engineWorkOf(_infra: Infrastructure): EngineWork {
  return { run: missing, actions: { start: missing, stop: missing, reload: missing, remove: missing } };
}
