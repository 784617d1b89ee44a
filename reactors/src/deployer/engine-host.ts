// The engine's address as the engine's CLIs take it: the tools Berth runs on the engine (the pack
// builders, the compose tool) act on the engine Berth uses (BERTH_ENGINE_SOCKET), not the host's default.
import type { EngineAddress } from '@berth/shared/adapters/docker/address';

/**
 * The address as DOCKER_HOST writes it: `unix://` or `tcp://` (an https engine's TLS settings reach
 * the tool as the docker CLI's own, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH).
 */
export function dockerHostOf(address: EngineAddress): string {
  if ('socketPath' in address) return `unix://${address.socketPath}`;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return `tcp://${host}:${address.port}`;
}

/** What a tool's environment needs to act on Berth's engine; nothing when the address is not known (the tool's default then). */
export const engineEnv = (dockerHost: string | undefined): NodeJS.ProcessEnv => (dockerHost ? { DOCKER_HOST: dockerHost } : {});
