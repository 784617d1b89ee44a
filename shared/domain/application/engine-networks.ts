// Networks the engine makes for itself, which an application's tasks may not join by name
// (networkOrch): `host` would put them in the host's network namespace (Berth's loopback-only API,
// every host port, past the port claims), `none` cuts them off, `bridge` and `docker_gwbridge` are
// one engine's own, `ingress` is the routing mesh. Refused when saved; the deployer checks every
// network on the engine again (a network made since, or named by its id, is caught there).
import { badRequest } from '../../errors.ts';

const ENGINE_NETWORKS: ReadonlySet<string> = new Set(['host', 'none', 'bridge', 'docker_gwbridge', 'ingress']);

/** Whether `name` is one of the networks the engine makes for itself. */
export const isEngineNetwork = (name: string): boolean => ENGINE_NETWORKS.has(name);

/** BAD_REQUEST naming networkOrch when it names one of the engine's own networks. */
export function mustNotJoinEngineNetworks(networks: ReadonlyArray<{ readonly Target: string }> | null | undefined): void {
  const named = (networks ?? []).map((network) => network.Target).filter(isEngineNetwork);
  if (named.length > 0) {
    throw badRequest('networkOrch', `names ${[...new Set(named)].join(', ')}: an application joins swarm overlay networks only, not the engine's own (host, none, bridge, docker_gwbridge, ingress)`);
  }
}
