// What the compose work needs: the deployer's engine, secrets and settings, the stack part of the
// orchestrator, and the engine's address for the compose tool.
import type { StackEngine } from '@berth/shared/ports/stack-engine';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { deployerDepsOf, type DeployerDeps } from '../deployer/deps.ts';

export interface ComposeDeps extends DeployerDeps {
  readonly stacks: StackEngine;
  /** The engine's address as the compose tool takes it (DOCKER_HOST). */
  readonly dockerHost: string;
}

export function composeDepsOf(infra: Infrastructure): ComposeDeps {
  const socket = infra.config.engineSocket;
  return {
    ...deployerDepsOf(infra),
    stacks: infra.stacks,
    dockerHost: socket.startsWith('http') ? socket.replace(/^http/, 'tcp') : `unix://${socket}`,
  };
}
