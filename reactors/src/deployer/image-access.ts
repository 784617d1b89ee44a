// Whether an application may run an image the engine may already hold: the registry decides, asked
// with the application's own login. When the registry asks for a login (or refuses the one given),
// the engine's copy is someone else's to run, pulled with their login. Serves an application's
// containerImage and the images its containerfile builds on alike.
import type { Application } from '@berth/shared/domain/application/record';
import type { RegistryAuth } from '@berth/shared/ports/container-engine';
import { DEFAULT_REGISTRY } from '@berth/shared/domain/registry/registry-url';
import { othersImageReason } from '@berth/shared/domain/ownership';
import { isUnavailable } from '@berth/shared/ports/unavailable';
import { messageOf } from '@berth/shared/errors';
import type { DeployerDeps } from './deps.ts';
import { DeploymentFailure } from './env.ts';
import { hostOf, localRepository } from './images.ts';

type AccessDeps = Pick<DeployerDeps, 'engine' | 'secrets' | 'records'>;

/**
 * The login `app` pulls `reference` with: its own username and password, when it has them. Never its
 * registry's: that login is an admin's, to push the application's images and run them, and would
 * reach every image in the registry, other tenants' too.
 */
export function pullAuthOf(deps: Pick<DeployerDeps, 'secrets'>, app: Application, reference: string): RegistryAuth | undefined {
  if (!app.username || !app.password) return undefined;
  return { username: app.username, password: deps.secrets.open(app.password), serveraddress: hostOf(reference) ?? DEFAULT_REGISTRY };
}

/**
 * Whether a registry's answer says it holds the image and refused the caller: always when it asks
 * for a login or refuses one; a bare "denied" (Docker Hub's answer for a repository it has not, too)
 * only when a login was given.
 */
const refusedLogin = (reason: string, withLogin: boolean) =>
  /unauthorized|authentication required|no basic auth credentials|incorrect username or password/i.test(reason) || (withLogin && /denied/i.test(reason));

export interface Access {
  readonly log: (line: string) => void;
  readonly signal: AbortSignal;
}

/**
 * Pulls `reference` with `app`'s login. A registry that refuses it fails the deployment; one out of
 * reach leaves the engine's copy usable when it is not another application's (ownership.ts).
 */
export async function pullAsApp(deps: AccessDeps, app: Application, reference: string, { log, signal }: Access): Promise<void> {
  const auth = pullAuthOf(deps, app, reference);
  try {
    await deps.engine.pullImage(reference, auth, log, signal);
  } catch (error) {
    signal.throwIfAborted();
    // An engine that cannot be reached has no local copy to offer either: asking it would wait once more.
    if (isUnavailable(error)) throw error;
    const reason = messageOf(error);
    const failed = `the image ${reference} could not be pulled: ${reason}`;
    // The registry holds it and refused this login (or asks for one): the engine's copy is someone else's to run.
    if (refusedLogin(reason, auth !== undefined)) throw new DeploymentFailure(failed);
    const labels = await deps.engine.imageLabels(reference);
    if (labels === null) throw new DeploymentFailure(failed);
    const others = othersImageReason(reference, labels, app.applicationId, localRepository(app));
    if (others !== null) throw new DeploymentFailure(`${failed}; and the engine's copy of ${others}`);
    log(`Pull failed (${reason}); using the engine's local image ${reference}`);
  }
}
