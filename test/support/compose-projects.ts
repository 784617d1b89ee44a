// Compose projects the compose tool brought up, as tests find and remove them: by the project label
// the tool puts on each container, network and volume it makes.
import { execFileSync } from 'node:child_process';

export const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim();

const LABEL = 'com.docker.compose.project';

/** Ids of the project's containers, running only unless `all`. */
export const projectContainers = (project: string, all = false) =>
  docker('ps', '-q', ...(all ? ['-a'] : []), '--filter', `label=${LABEL}=${project}`).split('\n').filter(Boolean);

/** Names of the project's networks or volumes. */
export const projectObjects = (kind: 'network' | 'volume', project: string) =>
  docker(kind, 'ls', '-q', '--filter', `label=${LABEL}=${project}`).split('\n').filter(Boolean);

/**
 * Removes what the projects left on the engine: their containers, networks and volumes, each by
 * name (a `prune` takes the engine's one prune lock, and fails while another file's runs).
 */
export function removeComposeProjects(projects: readonly string[]): void {
  for (const project of projects) {
    const left = projectContainers(project, true);
    if (left.length > 0) docker('rm', '-f', ...left);
    for (const kind of ['network', 'volume'] as const) {
      const objects = projectObjects(kind, project);
      if (objects.length > 0) docker(kind, 'rm', ...objects);
    }
  }
}
