// The deployment work the queue runs: source → image under the deployment's tag → (push to the
// application's registry) → service spec rolled out and watched. A rollback skips to the rollout.
// The proxy file is not written here: the proxy reactor rewrites it on DeploymentFinished, from
// the records as they are then and in turn with the application's other writes.
import type { RegistryAuth } from '@berth/shared/ports/container-engine';
import { hostPort } from '@berth/shared/domain/reservation/reservation';
import type { DeploymentResult, DeploymentWork, InterruptedWork, RunDeployment } from './work.ts';
import type { DeployerDeps } from './deps.ts';
import { DeploymentFailure, parseEnv } from './env.ts';
import { deploymentTag, localRepository, registryAuth, registryRepository } from './images.ts';
import { mustJoinOnlyOverlays } from './networks.ts';
import { mustHaveProxyNetwork } from './proxy-network.ts';
import { restoreInterrupted, rollOut } from './rollout.ts';
import { serviceSpecOf } from './service-spec.ts';
import { produceImage } from './source.ts';

async function registryOf(deps: DeployerDeps, work: DeploymentWork) {
  const { registryId } = work.application;
  if (!registryId) return null;
  const registry = await deps.records.registry(registryId);
  if (!registry) throw new DeploymentFailure(`the application's registry ${registryId} does not exist any more`);
  return registry;
}

export function runDeploymentWith(deps: DeployerDeps): RunDeployment {
  const run = async (work: DeploymentWork): Promise<DeploymentResult> => {
    const app = work.application;
    // What can fail without touching anything fails first. The env is recorded sealed (it holds
    // the service's secrets); one recorded before that is in clear, and reveal leaves it as it is.
    const env = parseEnv(deps.secrets.reveal(app.env));
    // Before the user's networks are checked: one of them may be the proxy's, made here the first time.
    await mustHaveProxyNetwork(deps.engine, deps.settings.proxyNetwork, work.log);
    await mustJoinOnlyOverlays(deps.engine, app.networkOrch);
    const registry = await registryOf(deps, work);
    const auth: RegistryAuth | undefined = registry ? registryAuth(registry, deps.secrets) : undefined;
    let image = work.image;
    let revision: string | null = null;
    if (work.kind === 'rollback' && image) {
      work.log(`Rolling back to ${image}: nothing is fetched or built`);
    } else {
      const tag = deploymentTag(work.deploymentId);
      const local = `${localRepository(app)}:${tag}`;
      ({ revision } = await produceImage(deps, work, local));
      image = local;
      if (registry && auth) {
        image = `${registryRepository(app, registry)}:${tag}`;
        await deps.engine.tagImage(local, image);
        work.log(`Pushing ${image} to ${registry.registryName}`);
        await deps.engine.pushImage(image, auth, work.log, work.signal);
      }
    }
    work.signal.throwIfAborted();
    const ports = await deps.records.ports(app.applicationId);
    const spec = serviceSpecOf(app, { image, env, ports, publishMode: deps.settings.publishMode, proxyNetwork: deps.settings.proxyNetwork });
    await rollOut(deps, spec, auth, work);
    return { image, revision, publishedPorts: ports.map((port) => hostPort(port.publishedPort, port.protocol)) };
  };
  // The application's one service is all a deployment of it changes on the engine.
  const recover = ({ deploymentId, application, log }: InterruptedWork) => restoreInterrupted(deps, deploymentId, [application.appName], log);
  return Object.assign(run, { recover });
}
