// The real work on the container engine (the engine half of the deployer): what the reactors
// role runs in production. Tests may hand the deployer other work; production never does.
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { serviceActionsWith } from './actions.ts';
import { deployerDepsOf } from './deps.ts';
import { runDeploymentWith } from './run.ts';
import type { RunDeployment, ServiceActions } from './work.ts';
import type { ComposeEngineWork } from '../compose/engine.ts';

export interface EngineWork {
  readonly run: RunDeployment;
  readonly actions: ServiceActions;
  /** Compose deployments and actions; the engine's when left out. */
  readonly compose?: ComposeEngineWork;
}

/** The deployment work and the service actions on the infrastructure's engine. */
export function engineWorkOf(infra: Infrastructure): EngineWork {
  const deps = deployerDepsOf(infra);
  return { run: runDeploymentWith(deps), actions: serviceActionsWith(deps) };
}
