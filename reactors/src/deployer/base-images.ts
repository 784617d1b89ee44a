// The images a containerfile builds on are run by the build as the application's own image is by
// its service: the builder takes the engine's copy of each (it pulls none), so each is held to the
// rule a `containerImage` is (ownership.ts, image-access.ts), before anything is built: one in a
// registry is pulled with the application's own login, so one another application pulled with its
// login is not built on by an application the registry refuses.
import type { Application } from '@berth/shared/domain/application/record';
import { imagesOf } from '@berth/shared/domain/containerfile-images';
import { othersImageReason } from '@berth/shared/domain/ownership';
import type { DeployerDeps } from './deps.ts';
import { pullAsApp, type Access } from './image-access.ts';
import { DeploymentFailure } from './env.ts';
import { hostOf, localRepository } from './images.ts';

/** Fails the deployment when `containerfile` builds on an image that is not `app`'s to run, or on one it cannot tell before the build. */
export async function mustBuildOnImagesItMayRun(deps: Pick<DeployerDeps, 'engine' | 'secrets' | 'records'>, app: Application, containerfile: string,
  access: Access): Promise<void> {
  const { images, unresolved } = imagesOf(containerfile);
  // Berth gives the builder no build arguments: what is left unresolved could name any image, another application's too.
  const [first] = unresolved;
  if (first !== undefined) {
    throw new DeploymentFailure(`the containerfile names the image ${first}, which cannot be told before the build (an ARG without a default, an ENV, or a \${…} form Berth does not resolve): name the image, or give the ARG a default`);
  }
  for (const image of new Set(images)) {
    const reason = othersImageReason(image, await deps.engine.imageLabels(image), app.applicationId, localRepository(app));
    if (reason !== null) throw new DeploymentFailure(`the containerfile builds on ${reason}`);
  }
  // Docker Hub's images (no host named) are left to the builder: asking the default registry for each would stall an offline host.
  for (const image of new Set(images)) {
    if (hostOf(image) === null) continue;
    access.log(`Pulling ${image}, which the containerfile builds on`);
    await pullAsApp(deps, app, image, access);
  }
}
