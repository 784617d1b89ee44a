// What the compose work needs: the deployer's engine, secrets and settings, the stack part of the
// orchestrator, and the engine's address for the compose tool.
import type { StackEngine } from '@berth/shared/ports/stack-engine';
import { engineAddress } from '@berth/shared/adapters/docker/address';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { deployerDepsOf, type DeployerDeps } from '../deployer/deps.ts';
import { dockerHostOf } from '../deployer/engine-host.ts';

export { dockerHostOf };

export interface ComposeDeps extends DeployerDeps {
  readonly stacks: StackEngine;
  /** The engine's address as the compose tool takes it (DOCKER_HOST). */
  readonly dockerHost: string;
}

export function composeDepsOf(infra: Infrastructure): ComposeDeps {
  return {
    ...deployerDepsOf(infra),
    stacks: infra.stacks,
    dockerHost: dockerHostOf(engineAddress(infra.config.engineSocket)),
  };
}
