// The images a failed or cancelled build left: the classic builder keeps one per step, untagged, and
// nothing would ever remove them (not the application's removal either: they carry no tag, and its
// mark only on the last). A successful build's steps need nothing: they are parents of its tagged
// image and go with it.
import type { ContainerEngine } from '@berth/shared/ports/container-engine';
import { isUnavailable } from '@berth/shared/ports/unavailable';
import { messageOf } from '@berth/shared/errors';

/**
 * Removes the step images `stepImages` (in build order) that nothing uses, newest first: a step's
 * image is its next one's parent, so the newest must go before the one it was built on. The engine's
 * plain removal keeps what is in use: a cache hit of an earlier build (its next step is built on
 * it), an image another build or a container runs from. A removal that fails is logged, not thrown:
 * the deployment failed already, for its own reason.
 */
export async function removeStepImages(engine: Pick<ContainerEngine, 'removeUnusedImage'>, stepImages: readonly string[],
  log: (line: string) => void): Promise<void> {
  let removed = 0;
  for (const id of [...new Set(stepImages)].reverse()) {
    try {
      if (await engine.removeUnusedImage(id)) removed += 1;
    } catch (error) {
      log(`Could not remove the image ${id} of a build step: ${messageOf(error)}`);
      // An engine that does not answer would make each of the rest wait its bound as well.
      if (isUnavailable(error)) break;
    }
  }
  if (removed > 0) log(`Removed ${removed} image(s) of the build's steps`);
}
