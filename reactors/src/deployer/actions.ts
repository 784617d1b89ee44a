// The service actions on the engine; each resolves once the engine has done it (bounded wait).
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Application } from '@berth/shared/domain/application/record';
import { EngineError, type ServiceInfo } from '@berth/shared/ports/container-engine';
import { removeProxyFile } from '@berth/shared/adapters/proxy-file';
import { ownedServices } from '@berth/shared/runtime/owned-services';
import type { DeployerDeps } from './deps.ts';
import { appMark, isScalable, mustRunTasks, replicasOf } from './service-spec.ts';
import { appSpecOf, authOf } from './app-spec.ts';
import { stopService } from './stop-service.ts';
import { until, untilGone, type EngineWait } from './until.ts';
import { imagesOfApp } from './app-images.ts';
import { waitForService } from './rollout.ts';
import type { ServiceActions } from './work.ts';

const NO_SIGNAL = new AbortController().signal;
const quiet = () => {};

/** The engine's "service not found", said as a database's actions say it: the user never deployed it (or removed it). */
const deployedOnly = (app: Application) => (error: unknown): never => {
  if (error instanceof EngineError && error.status === 404) throw new Error(`${app.appName} is not deployed`);
  throw error;
};

async function stop(deps: DeployerDeps, app: Application): Promise<void> {
  const info = await deps.engine.inspectService(app.appName);
  if (!info) throw new Error(`${app.appName} is not deployed`);
  await stopService(deps, info);
  await untilGone(deps, app.appName);
}

/**
 * A replicated service back to the count its record asks for (as a deploy reads it); a service its
 * stop removed (global, job) made again from the record and the image its last deployment ran.
 */
async function start(deps: DeployerDeps, app: Application): Promise<void> {
  const current = await deps.engine.inspectService(app.appName);
  const info = current && isScalable(current.spec)
    ? await deps.engine.updateService(app.appName, (spec) => ({ ...spec, Mode: { Replicated: { Replicas: replicasOf(app) } } }))
    : current ?? await recreated(deps, app);
  await waitForService(deps, info, { signal: NO_SIGNAL, log: quiet });
}

async function recreated(deps: DeployerDeps, app: Application): Promise<ServiceInfo> {
  const image = await deps.records.lastImage(app.applicationId);
  if (!image) throw new Error(`${app.appName} is not deployed`);
  const { spec } = await appSpecOf(deps, app, image);
  return deps.engine.upsertService(spec, await authOf(deps, app));
}

/** Resolves once no task of the service runs (scaled to 0, its containers stopped), within the bound. */
export const untilStopped = (deps: EngineWait, name: string): Promise<void> =>
  until(deps, `the tasks of ${name} to stop`, async () => !(await deps.engine.listTasks(name)).some((task) => task.state === 'running'));

/** The deps as one application acts through them: a service of its name it did not make is not its. */
const forApp = (deps: DeployerDeps, app: Application): DeployerDeps => ({ ...deps, engine: ownedServices(deps.engine, appMark(app)) });

export function serviceActionsWith(shared: DeployerDeps): ServiceActions {
  return {
    start: (app) => start(forApp(shared, app), app),
    stop: (app) => stop(forApp(shared, app), app),
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
      // A job's exited containers the engine keeps: removed here, once none of them runs.
      const { label, value } = appMark(app);
      const containers = () => deps.engine.listContainers({ label: `${label}=${value}` });
      await until(deps, `the containers of ${app.appName} to go`, async () => {
        const left = await containers();
        if (left.some((container) => container.state === 'running')) return false;
        for (const container of left) await deps.engine.removeContainer(container.containerId);
        return (await containers()).length === 0;
      });
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
