// A path that a service names inside its fetched repository (the build folder, the compose file).
// It must stay inside: a repository can hold symbolic links, and a link points anywhere on this
// host. A build folder linked to `/` would send the host's whole tree to the engine as the build
// context; a compose file linked to the instance key would be read, and a parse error quotes it
// into the deployment log. So the path is resolved, links and all, before it is used.
import { realpathSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { DeploymentFailure } from './env.ts';

/**
 * `path` inside `root`, resolved, or null when there is nothing there; a failure names `what`
 * when the path climbs out or a link leads out.
 */
export function foundInRepository(root: string, path: string, what: string): string | null {
  const relative = normalize(path).replace(/^\/+/, '');
  if (relative === '..' || relative.startsWith(`..${sep}`)) throw new DeploymentFailure(`the ${what} "${path}" leaves the repository`);
  const realRoot = realpathSync(root);
  let real: string;
  try {
    real = realpathSync(join(realRoot, relative));
  } catch {
    return null;
  }
  if (real !== realRoot && !real.startsWith(`${realRoot}${sep}`)) {
    throw new DeploymentFailure(`the ${what} "${path}" leads out of the repository through a symbolic link`);
  }
  return real;
}

/** `path` inside `root`, resolved; a failure names `what` when it climbs out, leads out or is missing. */
export async function insideRepository(root: string, path: string, what: string): Promise<string> {
  const found = foundInRepository(root, path, what);
  if (found === null) throw new DeploymentFailure(`the ${what} "${path}" is not in the repository`);
  return found;
}
