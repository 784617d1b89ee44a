// The deployment work the queue runs: source → image under the deployment's tag → (push to the
// application's registry) → service spec rolled out and watched. A rollback skips to the rollout.
// The proxy file is not written here: the proxy reactor rewrites it on DeploymentFinished, from
// the records as they are then and in turn with the application's other writes.
import type { RegistryAuth } from '@berth/shared/ports/container-engine';
import { hostPort } from '@berth/shared/domain/reservation/reservation';
import type { DeploymentResult, DeploymentWork, InterruptedWork, RunDeployment } from './work.ts';
import type { DeployerDeps } from './deps.ts';
import { parseEnv } from './env.ts';
import { appSpecOf, registryOf } from './app-spec.ts';
import { deploymentTag, localRepository, pushRepository, registryAuth, removeTagQuietly } from './images.ts';
import { mustJoinOnlyOverlays } from './networks.ts';
import { mustHaveProxyNetwork } from './proxy-network.ts';
import { restoreInterrupted, rollOut } from './rollout.ts';
import { produceImage } from './source.ts';

export function runDeploymentWith(deps: DeployerDeps): RunDeployment {
  const run = async (work: DeploymentWork): Promise<DeploymentResult> => {
    const app = work.application;
    // What can fail without touching anything fails first.
    parseEnv(deps.secrets.reveal(app.env));
    // Before the user's networks are checked: one of them may be the proxy's, made here the first time.
    await mustHaveProxyNetwork(deps.engine, deps.settings.proxyNetwork, work.log);
    await mustJoinOnlyOverlays(deps.engine, app.networkOrch);
    const registry = await registryOf(deps, app);
    const auth: RegistryAuth | undefined = registry ? registryAuth(registry, deps.secrets) : undefined;
    const pushTo = registry && pushRepository(app, registry);
    let image = work.image;
    let revision: string | null = null;
    let registryTag: string | null = null;
    try {
      if (work.kind === 'rollback' && image) {
        work.log(`Rolling back to ${image}: nothing is fetched or built`);
      } else {
        const tag = deploymentTag(work.deploymentId);
        const local = `${localRepository(app)}:${tag}`;
        ({ revision } = await produceImage(deps, work, local));
        image = local;
        if (registry && auth && pushTo) {
          image = registryTag = `${pushTo}:${tag}`;
          await deps.engine.tagImage(local, image);
          work.log(`Pushing ${image} to ${registry.registryName}`);
          await deps.engine.pushImage(image, auth, work.log, work.signal);
        }
      }
      work.signal.throwIfAborted();
      const { spec, ports } = await appSpecOf(deps, app, image);
      await rollOut(deps, spec, auth, work);
      return { image, revision, publishedPorts: ports.map((port) => hostPort(port.publishedPort, port.protocol)) };
    } catch (error) {
      // A failed deployment records no image, so its pruning finds only its local tag: the registry tag goes now.
      if (registryTag) await removeTagQuietly(deps, registryTag, work.log);
      throw error;
    }
  };
  // The application's one service is all a deployment of it changes on the engine.
  const recover = ({ deploymentId, application, log }: InterruptedWork) => restoreInterrupted(deps, deploymentId, [application.appName], log);
  return Object.assign(run, { recover });
}
