// An application's service spec from its records: its registry's login, its environment, its ports.
// A deploy writes it with the image it produced; a start of a service its stop removed (a global or
// job service has no scale to set to 0) writes it again with the image its last deployment ran.
import type { RegistryAuth, ServiceSpec } from '@berth/shared/ports/container-engine';
import type { Application } from '@berth/shared/domain/application/record';
import type { Port } from '@berth/shared/domain/port/port';
import type { DeployerDeps } from './deps.ts';
import { DeploymentFailure, parseEnv } from './env.ts';
import { registryAuth } from './images.ts';
import { serviceSpecOf } from './service-spec.ts';

export async function registryOf(deps: DeployerDeps, app: Application) {
  const { registryId } = app;
  if (!registryId) return null;
  const registry = await deps.records.registry(registryId);
  if (!registry) throw new DeploymentFailure(`the application's registry ${registryId} does not exist any more`);
  return registry;
}

/** The login the engine pulls the application's images with, when it has a registry. */
export async function authOf(deps: DeployerDeps, app: Application): Promise<RegistryAuth | undefined> {
  const registry = await registryOf(deps, app);
  return registry ? registryAuth(registry, deps.secrets) : undefined;
}

/**
 * The spec of the application's service running `image`. The env is recorded sealed (it holds the
 * service's secrets); one recorded before that is in clear, and reveal leaves it as it is.
 */
export async function appSpecOf(deps: DeployerDeps, app: Application, image: string): Promise<{ spec: ServiceSpec; ports: Port[] }> {
  const env = parseEnv(deps.secrets.reveal(app.env));
  const ports = await deps.records.ports(app.applicationId);
  return { spec: serviceSpecOf(app, { image, env, ports, publishMode: deps.settings.publishMode, proxyNetwork: deps.settings.proxyNetwork }), ports };
}
