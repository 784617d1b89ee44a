// The network the proxy reaches applications on (BERTH_PROXY_NETWORK): each application's proxy
// file sends to `http://<appName>:<port>`, a name the engine's resolver answers only on a network
// the service shares with the proxy. The deployer makes it when missing, before the rollout; any
// number of deployers may race to make it (the engine keeps one network of a name: the others are
// told it exists, which is as good). One of that name that is not an attachable swarm overlay, or
// that Berth made for a service, fails the deployment: the proxy could not reach the service on it.
import { PROXY_NETWORK_LABEL } from '@berth/shared/domain/ownership';
import type { ContainerEngine, NetworkInfo } from '@berth/shared/ports/container-engine';
import { DeploymentFailure } from './env.ts';
import { unfitForServices } from './networks.ts';

/** Why `network` cannot be the proxy's network; null when it can. */
function unfit(network: NetworkInfo): string | null {
  const forServices = unfitForServices(network);
  if (forServices) return `it ${forServices}`;
  // A proxy run as a plain container (not a swarm service) can join only an attachable one.
  return network.attachable ? null : 'it is not attachable';
}

/**
 * The network named `name`. One another deployer made a moment ago may answer no driver yet
 * (measured under a race: driver "", scope swarm, until the swarm has allocated it): asked again
 * for up to five seconds before it is judged.
 */
async function settled(engine: ContainerEngine, name: string): Promise<NetworkInfo | null> {
  for (let attempt = 0; ; attempt++) {
    const found = await engine.network(name);
    if (!found || found.driver !== '' || attempt >= 50) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Makes the proxy's network `name` when the engine has none; fails the deployment when the one it has cannot serve. */
export async function mustHaveProxyNetwork(engine: ContainerEngine, name: string, log: (line: string) => void): Promise<void> {
  let found = await settled(engine, name);
  if (!found) {
    if (await engine.createOverlayNetwork(name, { [PROXY_NETWORK_LABEL]: 'true' })) log(`Made the proxy's network ${name}`);
    found = await settled(engine, name);
  }
  // Gone again between the create and the inspect: someone removed it meanwhile; the next deploy makes it.
  const reason = found ? unfit(found) : 'it was removed while this deployment made it';
  if (reason) {
    throw new DeploymentFailure(`BERTH_PROXY_NETWORK: the proxy's network ${name} cannot serve: ${reason}; remove it, or set BERTH_PROXY_NETWORK to another name`);
  }
}
