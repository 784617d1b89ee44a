// A `container-compose` project as the engine holds it: every container and network the compose
// tool labelled with the project's name (`composeProjectName(appName)`, as the tool normalises it).
// Stop and delete act on these, not on a compose file: the file of the last deploy may be gone or
// changed since (another composePath, a service taken out of the text, the sources folder cleaned),
// and what it no longer names would run on.
import type { Compose } from '@berth/shared/domain/compose/compose';
import { composeProjectName } from '@berth/shared/domain/compose/project-name';
import type { ComposeDeps } from './deps.ts';

/** The label the compose tool puts on everything it creates for a project. */
export const PROJECT_LABEL = 'com.docker.compose.project';

const ofProject = (appName: string) => ({ label: `${PROJECT_LABEL}=${composeProjectName(appName)}` });
const RUNNING = new Set(['running', 'restarting', 'paused']);

/** Every container of the project, running or not. */
export const projectContainers = (deps: ComposeDeps, compose: Pick<Compose, 'appName'>) =>
  deps.engine.listContainers(ofProject(compose.appName));

/** Every running container of the project stopped, each with its own stop signal and grace period. */
export async function stopProject(deps: ComposeDeps, compose: Pick<Compose, 'appName'>): Promise<void> {
  const containers = await projectContainers(deps, compose);
  await Promise.all(containers.filter((container) => RUNNING.has(container.state))
    .map((container) => deps.engine.stopContainer(container.containerId)));
}

/** Containers stopped then removed, then the project's networks; named volumes are kept, as `down` without `-v` keeps them. */
export async function removeProject(deps: ComposeDeps, compose: Pick<Compose, 'appName'>): Promise<void> {
  await stopProject(deps, compose);
  const containers = await projectContainers(deps, compose);
  await Promise.all(containers.map((container) => deps.engine.removeContainer(container.containerId)));
  for (const network of await deps.engine.listNetworks(ofProject(compose.appName))) await deps.engine.removeNetwork(network);
}
