// A `container-compose` project as the engine holds it: every container and network the compose
// tool labelled with the project's name (`composeProjectName(appName)`, as the tool normalises it).
// Stop and delete act on these, not on a compose file: the file of the last deploy may be gone or
// changed since (another composePath, a service taken out of the text, the sources folder cleaned),
// and what it no longer names would run on. A project of that name that Berth's tool did not run
// from the service's folder is someone else's (an operator's `docker compose -p`): left alone.
import type { Compose } from '@berth/shared/domain/compose/compose';
import { PROJECT_LABEL, composeProjectName, isProjectOf } from '@berth/shared/domain/compose/project-name';
import { DeploymentFailure } from '../deployer/env.ts';
import { foreignObjectReason } from '@berth/shared/domain/ownership';
import type { ComposeDeps } from './deps.ts';
import { builtImageNames } from './built-images.ts';

const ofProject = (appName: string) => ({ label: `${PROJECT_LABEL}=${composeProjectName(appName)}` });
/** The states of a container the engine runs, or means to run again (`restarting`, by its restart policy). */
export const RUNNING = new Set(['running', 'restarting', 'paused']);

/** What finding a project's containers reads: the engine's list, and where Berth's tool ran. */
export interface ProjectReader {
  readonly engine: Pick<ComposeDeps['engine'], 'listContainers'>;
  readonly settings: Pick<ComposeDeps['settings'], 'sourcesDir'>;
}

const labelled = (deps: ProjectReader, compose: Pick<Compose, 'appName'>) => deps.engine.listContainers(ofProject(compose.appName));

/** Every container of the project that Berth's tool made for the service, running or not. */
export const projectContainers = async (deps: ProjectReader, compose: Pick<Compose, 'appName'>) =>
  (await labelled(deps, compose)).filter((container) => isProjectOf(container.labels, deps.settings.sourcesDir, compose.appName));

/** Before a deploy runs the tool: a project of the service's name with a container Berth did not make fails it, untouched. */
export async function claimProject(deps: ComposeDeps, compose: Pick<Compose, 'appName'>): Promise<void> {
  const foreign = (await labelled(deps, compose)).some((container) => !isProjectOf(container.labels, deps.settings.sourcesDir, compose.appName));
  if (foreign) throw new DeploymentFailure(foreignObjectReason('compose project', composeProjectName(compose.appName)));
}

/** Every running container of the project stopped, each with its own stop signal and grace period. */
export async function stopProject(deps: ComposeDeps, compose: Pick<Compose, 'appName'>): Promise<void> {
  const containers = await projectContainers(deps, compose);
  await Promise.all(containers.filter((container) => RUNNING.has(container.state))
    .map((container) => deps.engine.stopContainer(container.containerId)));
}

/**
 * Containers stopped then removed, with the images the tool built for them, then the project's
 * networks; named volumes are kept, as `down` without `-v` keeps them. The networks carry no
 * folder: they go only when no container of the project's name is left, so another's project keeps its networks.
 */
export async function removeProject(deps: ComposeDeps, compose: Pick<Compose, 'appName'>): Promise<void> {
  await stopProject(deps, compose);
  const containers = await projectContainers(deps, compose);
  const built = builtImageNames(containers, composeProjectName(compose.appName));
  await Promise.all(containers.map((container) => deps.engine.removeContainer(container.containerId)));
  // Its name goes; the image, with its steps, once nothing uses it (as `down --rmi local` does). A refusal leaves it: the removal goes on.
  for (const name of built) await deps.engine.removeImage(name).catch(() => undefined);
  if ((await labelled(deps, compose)).length > 0) return;
  for (const network of await deps.engine.listNetworks(ofProject(compose.appName))) await deps.engine.removeNetwork(network);
}
