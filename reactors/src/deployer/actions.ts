// The service actions on the engine; each resolves once the engine has done it (bounded wait).
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Application } from '@berth/shared/domain/application/record';
import { EngineError, type ServiceSpec } from '@berth/shared/ports/container-engine';
import { removeProxyFile } from '@berth/shared/adapters/proxy-file';
import { ownedServices } from '@berth/shared/runtime/owned-services';
import type { DeployerDeps, DeployerSettings } from './deps.ts';
import { appMark, mustRunTasks } from './service-spec.ts';
import { imagesOfApp } from './app-images.ts';
import { waitForService } from './rollout.ts';
import type { ServiceActions } from './work.ts';

const NO_SIGNAL = new AbortController().signal;
const quiet = () => {};

const withReplicas = (spec: ServiceSpec, replicas: number): ServiceSpec => ({ ...spec, Mode: { Replicated: { Replicas: replicas } } });

/** The engine's "service not found", said as a database's actions say it: the user never deployed it (or removed it). */
const deployedOnly = (app: Application) => (error: unknown): never => {
  if (error instanceof EngineError && error.status === 404) throw new Error(`${app.appName} is not deployed`);
  throw error;
};

async function scale(deps: DeployerDeps, app: Application, replicas: number): Promise<void> {
  const info = await deps.engine.updateService(app.appName, (spec) => withReplicas(spec, replicas)).catch(deployedOnly(app));
  if (replicas > 0) return waitForService(deps, info, { signal: NO_SIGNAL, log: quiet });
  await untilStopped(deps, app.appName);
}

/** What a wait on the engine needs: the engine and the bound on it (databases' stop waits too). */
type EngineWait = Pick<DeployerDeps, 'engine'> & { readonly settings: Pick<DeployerSettings, 'taskStartTimeoutMs'> };

/** Resolves once no task of the service runs (scaled to 0, its containers stopped), within the bound. */
export const untilStopped = (deps: EngineWait, name: string): Promise<void> =>
  until(deps, `the tasks of ${name} to stop`, async () => !(await deps.engine.listTasks(name)).some((task) => task.state === 'running'));

/** Polls `done` until it holds, within the deployer's bound on engine waits. */
export async function until(deps: EngineWait, what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + deps.settings.taskStartTimeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${deps.settings.taskStartTimeoutMs} ms waiting for ${what}`);
}

/** The deps as one application acts through them: a service of its name it did not make is not its. */
const forApp = (deps: DeployerDeps, app: Application): DeployerDeps => ({ ...deps, engine: ownedServices(deps.engine, appMark(app)) });

export function serviceActionsWith(shared: DeployerDeps): ServiceActions {
  return {
    start: (app) => scale(forApp(shared, app), app, app.replicas),
    stop: (app) => scale(forApp(shared, app), app, 0),
    isOnEngine: async (app) => (await forApp(shared, app).engine.inspectService(app.appName)) !== null,
    async reload(app) {
      const deps = forApp(shared, app);
      // Same spec, new tasks: the image is not rebuilt nor pulled again.
      const info = await deps.engine.updateService(app.appName, (spec) => {
        mustRunTasks(spec);
        return { ...spec, TaskTemplate: { ...spec.TaskTemplate, ForceUpdate: (spec.TaskTemplate.ForceUpdate ?? 0) + 1 } };
      }).catch(deployedOnly(app));
      await waitForService(deps, info, { signal: NO_SIGNAL, log: quiet });
    },
    async remove(app) {
      const deps = forApp(shared, app);
      await deps.engine.removeService(app.appName);
      // Its containers go away shortly after it; only then are its images free to remove. Its own,
      // by its mark: a service of the same name it did not make stays, and so do its containers.
      const { label, value } = appMark(app);
      await until(deps, `the containers of ${app.appName} to go`, async () =>
        (await deps.engine.listContainers({ label: `${label}=${value}` })).length === 0);
      // Under its names of now and of before (a registry it left, an appName it had).
      for (const tag of await imagesOfApp(shared, app)) await shared.engine.removeImage(tag);
      await removeProxyFile(deps.settings.proxyDir, app.appName);
      await rm(join(deps.settings.sourcesDir, app.appName), { recursive: true, force: true });
    },
    async pruneImages(app, images) {
      // The spec may pin the image by digest (`name:tag@sha256:…`): compare without it.
      const running = (await shared.engine.inspectService(app.appName))?.spec.TaskTemplate.ContainerSpec.Image.split('@')[0];
      for (const image of images) if (image !== running) await shared.engine.removeImage(image);
    },
  };
}
