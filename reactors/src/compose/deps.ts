// What the compose work needs: the deployer's engine, secrets and settings, the stack part of the
// orchestrator, and the engine's address for the compose tool.
import type { StackEngine } from '@berth/shared/ports/stack-engine';
import { engineAddress, type EngineAddress } from '@berth/shared/adapters/docker/address';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { deployerDepsOf, type DeployerDeps } from '../deployer/deps.ts';

export interface ComposeDeps extends DeployerDeps {
  readonly stacks: StackEngine;
  /** The engine's address as the compose tool takes it (DOCKER_HOST). */
  readonly dockerHost: string;
}

/**
 * The address as DOCKER_HOST writes it: `unix://` or `tcp://` (an https engine's TLS settings reach
 * the tool as the docker CLI's own, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH).
 */
export function dockerHostOf(address: EngineAddress): string {
  if ('socketPath' in address) return `unix://${address.socketPath}`;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return `tcp://${host}:${address.port}`;
}

export function composeDepsOf(infra: Infrastructure): ComposeDeps {
  return {
    ...deployerDepsOf(infra),
    stacks: infra.stacks,
    dockerHost: dockerHostOf(engineAddress(infra.config.engineSocket)),
  };
}
