// The images a compose project's containers ran before a deploy that the deploy left without a tag:
// the tool builds (or pulls) a service's image under the same name each time, and the one it
// replaced stays, untagged, once its container is recreated: one more per deploy, forever.
import type { Compose } from '@berth/shared/domain/compose/compose';
import { messageOf } from '@berth/shared/errors';
import type { ComposeDeps } from './deps.ts';
import { projectContainers } from './project.ts';

const imageIdOf = (inspected: object | null): string | null => {
  const image = (inspected as { Image?: unknown } | null)?.Image;
  return typeof image === 'string' ? image : null;
};

/** The ids of the images the project's containers run now (the engine's inspect names the id; the summary, the name given). */
export async function projectImages(deps: ComposeDeps, compose: Pick<Compose, 'appName'>): Promise<string[]> {
  const containers = await projectContainers(deps, compose);
  const ids = await Promise.all(containers.map(async (container) => imageIdOf(await deps.engine.inspectContainer(container.containerId))));
  return [...new Set(ids.filter((id): id is string => id !== null))];
}

/**
 * Removes those of `before` that no tag names and nothing uses any more, with their build steps; the
 * engine's plain removal keeps the rest (one the deploy kept, or a container still runs). A failure
 * is logged, not thrown: the deployment ended already, for its own reason.
 */
export async function removeReplacedImages(deps: ComposeDeps, before: readonly string[], log: (line: string) => void): Promise<void> {
  let removed = 0;
  for (const id of before) {
    try {
      if (await deps.engine.removeUnusedImage(id, { withParents: true })) removed += 1;
    } catch (error) {
      log(`Could not remove the image ${id} the deploy replaced: ${messageOf(error)}`);
    }
  }
  if (removed > 0) log(`Removed ${removed} image(s) the deploy replaced`);
}
