// Where a deployment's image lives: a local repository per application, or the application's
// registry, with one tag per deployment so that a rollback redeploys it without a build.
import type { Application } from '@berth/shared/domain/application/record';
import type { Registry } from '@berth/shared/domain/registry/registry';
import type { RegistryAuth } from '@berth/shared/ports/container-engine';
import type { SecretBox } from '@berth/shared/crypto/secrets';
import { DEFAULT_REGISTRY, registryHostOf, registryPathOf } from '@berth/shared/domain/registry/registry-url';
import { LOCAL_IMAGES } from '@berth/shared/domain/ownership';

/** The local repository of an application's images. */
export const localRepository = (app: Pick<Application, 'appName'>) => `${LOCAL_IMAGES}${app.appName}`;

export const deploymentTag = (deploymentId: string) => `deploy-${deploymentId}`;

/** The deployment whose tag (see deploymentTag) an image reference carries; null for any other tag. */
export const deploymentOfTag = (reference: string): string | null => /:deploy-([^:/@]+)$/.exec(reference)?.[1] ?? null;

export function registryRepository(app: Pick<Application, 'appName'>, registry: Registry): string {
  const prefix = registry.imagePrefix?.replace(/^\/+|\/+$/g, '');
  return [registryPathOf(registry.registryUrl), prefix, app.appName].filter(Boolean).join('/');
}

export const registryAuth = (registry: Registry, secrets: SecretBox): RegistryAuth => ({
  username: registry.username, password: secrets.open(registry.password), serveraddress: registryHostOf(registry.registryUrl) || DEFAULT_REGISTRY,
});

/** The registry host an image reference names, when it names one (`host.tld/…`, `host:5000/…`). */
export function hostOf(reference: string): string | null {
  const first = reference.split('/')[0] ?? '';
  return reference.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost') ? first : null;
}
