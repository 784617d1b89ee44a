// The networks an application's tasks join (networkOrch), checked on the engine before anything is
// fetched or built. Only a swarm overlay network joins the service to others: `host` would put its
// tasks in the host's network namespace (Berth's loopback-only API, every host port, past the port
// claims), `bridge` and `docker_gwbridge` are one engine's own, `ingress` is the routing mesh, and
// a network Berth made for another service (a compose stack's) is that service's. This holds for
// every account, admins included: a service in the host's namespace is not what this field is for.
import type { Application } from '@berth/shared/domain/application/record';
import { carriesAMark } from '@berth/shared/domain/ownership';
import type { ContainerEngine, NetworkInfo } from '@berth/shared/ports/container-engine';
import { DeploymentFailure } from './env.ts';

/** Why services may not be joined on `network` (a clause without its subject); null when they may. The proxy's network is judged so too. */
export function unfitForServices(network: NetworkInfo): string | null {
  if (network.ingress) return 'is the engine\'s routing mesh, which a service does not join by name';
  if (network.driver !== 'overlay' || network.scope !== 'swarm') {
    return `is not a swarm overlay network (its driver is ${network.driver}, its scope ${network.scope})`;
  }
  if (carriesAMark(network.labels)) return 'was made by Berth for another service';
  return null;
}

/** Why a service may not join `network`; null when it may. */
function refusal(target: string, network: NetworkInfo | null): string | null {
  if (!network) return `no network is named ${target} (networks are named, not given by id)`;
  const unfit = unfitForServices(network);
  return unfit && `${target} ${unfit}`;
}

/** Fails the deployment, naming networkOrch and the network, unless each network is one a service may join. */
export async function mustJoinOnlyOverlays(engine: ContainerEngine, networks: Application['networkOrch']): Promise<void> {
  for (const { Target } of networks ?? []) {
    const reason = refusal(Target, await engine.network(Target));
    if (reason) throw new DeploymentFailure(`networkOrch: ${reason}`);
  }
}
