// A compose file's images may live in a private registry: one Berth knows (registry.create) lends
// its login, matched by the host the image reference names. A stack's services get it with their
// spec (the nodes pull with it); the compose tool reads the logins from a config folder of its own.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Registry } from '@berth/shared/domain/registry/registry';
import { registryHostOf } from '@berth/shared/domain/registry/registry-url';
import type { RegistryAuth } from '@berth/shared/ports/container-engine';
import { hostOf, registryAuth } from '../deployer/images.ts';
import type { ComposeDeps } from './deps.ts';

/** The hosts the default registry goes by: an image naming no host lives there. */
const DOCKER_HUB = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);
const hubOr = (host: string) => (DOCKER_HUB.has(host) ? 'docker.io' : host);

const registryOf = (registries: readonly Registry[], image: string): Registry | undefined => {
  const host = hubOr(hostOf(image) ?? 'docker.io');
  return registries.find((registry) => hubOr(registryHostOf(registry.registryUrl)) === host);
};

/** The login of the registry `image` lives in, when Berth knows that registry. */
export async function registryAuthFor(deps: ComposeDeps, image: string): Promise<RegistryAuth | undefined> {
  const registry = registryOf(await deps.records.registries(), image);
  return registry && registryAuth(registry, deps.secrets);
}

/**
 * A config folder (DOCKER_CONFIG) holding the login of every registry Berth knows, for one run of
 * the compose tool; null when it knows none. Removed by `remove()`: it holds passwords.
 */
export async function registryLogins(deps: ComposeDeps): Promise<{ readonly dir: string; remove(): Promise<void> } | null> {
  const registries = await deps.records.registries();
  if (registries.length === 0) return null;
  const auths = Object.fromEntries(registries.map((registry) => {
    const { username, password, serveraddress } = registryAuth(registry, deps.secrets);
    return [serveraddress, { auth: Buffer.from(`${username}:${password}`).toString('base64') }];
  }));
  const dir = await mkdtemp(join(tmpdir(), 'berth-compose-logins-'));
  await writeFile(join(dir, 'config.json'), JSON.stringify({ auths }), { mode: 0o600 });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
