// A compose file's images may live in a private registry: one Berth knows (registry.create) lends
// its login, matched by the host the image reference names. A stack's services get it with their
// spec (the nodes pull with it); the compose tool reads the logins from a config folder of its own.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Registry } from '@berth/shared/domain/registry/registry';
import { registryHostOf } from '@berth/shared/domain/registry/registry-url';
import type { RegistryAuth } from '@berth/shared/ports/container-engine';
import { hostOf, registryAuth } from '../deployer/images.ts';
import type { ComposeDeps } from './deps.ts';

/** The hosts the default registry goes by: an image naming no host lives there. */
const DOCKER_HUB = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);
/** A registry saved without a URL is the default one, as an image naming no host. */
const hubOr = (host: string) => (host === '' || DOCKER_HUB.has(host) ? 'docker.io' : host);

const registryOf = (registries: readonly Registry[], image: string): Registry | undefined => {
  const host = hubOr(hostOf(image) ?? 'docker.io');
  return registries.find((registry) => hubOr(registryHostOf(registry.registryUrl)) === host);
};

/** For each image, the login of the registry it lives in, when Berth knows that registry (the registries read once). */
export async function registryAuths(deps: ComposeDeps): Promise<(image: string) => RegistryAuth | undefined> {
  const registries = await deps.records.registries();
  return (image) => {
    const registry = registryOf(registries, image);
    return registry && registryAuth(registry, deps.secrets);
  };
}

/** The operator's own config folder of the engine's command-line tools, whose settings a run keeps. */
const operatorConfigDir = () => process.env.DOCKER_CONFIG ?? join(homedir(), '.docker');

async function operatorConfig(dir: string): Promise<Record<string, unknown>> {
  try {
    const parsed: unknown = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed as Record<string, unknown> : {};
  } catch {
    return {};
  }
}

/**
 * A config folder (DOCKER_CONFIG) for one run of the compose tool: the operator's config (proxies,
 * other logins, the CLI's plugins, `docker compose` among them) with the login of every registry
 * Berth knows (the oldest, where two share a host, as for a stack); null when it knows none.
 * Removed by `remove()`: it holds passwords.
 */
export async function registryLogins(deps: ComposeDeps): Promise<{ readonly dir: string; remove(): Promise<void> } | null> {
  const registries = await deps.records.registries();
  if (registries.length === 0) return null;
  const auths: Record<string, { auth: string }> = {};
  for (const registry of registries) {
    const { username, password, serveraddress } = registryAuth(registry, deps.secrets);
    auths[serveraddress] ??= { auth: Buffer.from(`${username}:${password}`).toString('base64') };
  }
  const own = operatorConfigDir();
  const { credsStore: _store, credHelpers, ...operator } = await operatorConfig(own);
  // A credentials store or helper answers before the logins written here: none for Berth's hosts.
  const helpers = Object.fromEntries(Object.entries((credHelpers ?? {}) as Record<string, string>).filter(([host]) => !(host in auths)));
  const config = { ...operator, auths: { ...(operator.auths as object | undefined), ...auths }, credHelpers: helpers };
  const dir = await mkdtemp(join(tmpdir(), 'berth-compose-logins-'));
  await writeFile(join(dir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
  if (existsSync(join(own, 'cli-plugins'))) await symlink(join(own, 'cli-plugins'), join(dir, 'cli-plugins'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
