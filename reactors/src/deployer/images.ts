// Where a deployment's image lives: a local repository per application, or the application's
// registry, with one tag per deployment so that a rollback redeploys it without a build.
import type { Application } from '@berth/shared/domain/application/record';
import type { Registry } from '@berth/shared/domain/registry/registry';
import type { ContainerEngine, RegistryAuth } from '@berth/shared/ports/container-engine';
import { messageOf } from '@berth/shared/errors';
import type { SecretBox } from '@berth/shared/crypto/secrets';
import { DEFAULT_REGISTRY, imageNameProblem, registryHostOf, registryPathOf } from '@berth/shared/domain/registry/registry-url';
import { DeploymentFailure } from './env.ts';
import { LOCAL_IMAGES } from '@berth/shared/domain/ownership';

/** The local repository of an application's images. */
export const localRepository = (app: Pick<Application, 'appName'>) => `${LOCAL_IMAGES}${app.appName}`;

export const deploymentTag = (deploymentId: string) => `deploy-${deploymentId}`;

/** The deployment whose tag (see deploymentTag) an image reference carries; null for any other tag. */
export const deploymentOfTag = (reference: string): string | null => /:deploy-([^:/@]+)$/.exec(reference)?.[1] ?? null;

/** The repository of a `repository:tag` reference Berth wrote (a registry's `host:port/` is not a tag). */
export const repositoryOf = (reference: string) => reference.replace(/:[^:/]*$/, '');

export function registryRepository(app: Pick<Application, 'appName'>, registry: Registry): string {
  const prefix = registry.imagePrefix?.replace(/^\/+|\/+$/g, '');
  return [registryPathOf(registry.registryUrl), prefix, app.appName].filter(Boolean).join('/');
}

/**
 * The repository a deployment's image is pushed to. A registry saved before its URL path and prefix
 * were checked may not form one: the deployment fails naming the registry and the field, not the engine's error.
 */
export function pushRepository(app: Pick<Application, 'appName'>, registry: Registry): string {
  const problem = imageNameProblem(registry.registryUrl, registry.imagePrefix);
  if (problem) throw new DeploymentFailure(`the registry ${registry.registryName}'s ${problem.field} ${problem.reason}: correct it with registry.update`);
  return registryRepository(app, registry);
}

export const registryAuth = (registry: Registry, secrets: SecretBox): RegistryAuth => ({
  username: registry.username, password: secrets.open(registry.password), serveraddress: registryHostOf(registry.registryUrl) || DEFAULT_REGISTRY,
});

/** The registry host an image reference names, when it names one (`host.tld/…`, `host:5000/…`). */
export function hostOf(reference: string): string | null {
  const first = reference.split('/')[0] ?? '';
  return reference.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost') ? first : null;
}

/** Removes the tag `reference` (the image stays while another tag names it); a failure is logged, not thrown: it comes on top of another. */
export async function removeTagQuietly(deps: { engine: Pick<ContainerEngine, 'removeImage'> }, reference: string, log: (line: string) => void): Promise<void> {
  try {
    await deps.engine.removeImage(reference);
  } catch (error) {
    log(`Could not remove the tag ${reference}: ${messageOf(error)}`);
  }
}
