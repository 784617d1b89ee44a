// registry.enableSelfHostedRegistry: runs an image registry as a swarm service, its logins an
// htpasswd entry of the given credentials and its images in a named volume, publishes it on the
// URL's port, and waits for it to run; the handler then records the registry. There is one such
// service: it is claimed in the log with its host port, and a second enable is refused (it would
// replace the first one's logins and port under the first one's record).
import { htpasswdEntry } from '@berth/shared/crypto/htpasswd';
import { mustBeBasicAuthName } from '@berth/shared/domain/security/security';
import { mustBeRegistryUrl, registryHostOf } from '@berth/shared/domain/registry/registry-url';
import { badRequest, conflict } from '@berth/shared/errors';
import type { ServiceSpec } from '@berth/shared/ports/container-engine';
import { waitForRollout } from '@berth/shared/runtime/task-watch';
import type { Context } from '../context.ts';
import { askEngine } from './engine.ts';
import { claim, hostPort, release } from './reservations.ts';

export const SELF_HOSTED_REGISTRY = 'berth-registry';
const PORT = 5000;

/** The port a registry URL names, if it names one. */
const namedPortOf = (registryUrl: string): string | undefined => registryHostOf(registryUrl).match(/:(\d+)$/)?.[1];

/** The host port the URL names: pushes and pulls go there, so the registry is published there. */
function publishedPortOf(registryUrl: string): number {
  const port = namedPortOf(registryUrl);
  if (port === undefined) {
    throw badRequest('registryUrl', `must name the port to publish the registry on, as host:port (for example registry.example.com:${PORT}): images are pushed to the port the URL names`);
  }
  const number = Number(port);
  if (number < 1 || number > 65535) throw badRequest('registryUrl', 'must name a port from 1 to 65535');
  return number;
}

/** Lets the record's claims go and takes the registry service away (its images stay in their volume). */
export async function removeSelfHostedRegistry(ctx: Context, registry: { registryId: string; registryUrl: string }): Promise<void> {
  const port = namedPortOf(registry.registryUrl);
  if (port !== undefined) await release(ctx, 'hostPort', hostPort(Number(port)), registry.registryId);
  await release(ctx, 'instance', SELF_HOSTED_REGISTRY, registry.registryId);
  await askEngine(() => ctx.infra.engine.removeService(SELF_HOSTED_REGISTRY), 'registryId', 'Registry service');
}

function mustBeSelfHostedInput(input: { registryUrl: string; username: string }): void {
  mustBeRegistryUrl(input.registryUrl);
  publishedPortOf(input.registryUrl);
  mustBeBasicAuthName(input.username);
}

function registrySpec(ctx: Context, input: { registryUrl: string; username: string; password: string }): ServiceSpec {
  return {
    Name: SELF_HOSTED_REGISTRY,
    Labels: { 'berth.selfHostedRegistry': 'true' },
    TaskTemplate: {
      ContainerSpec: {
        Image: ctx.infra.config.registryImage,
        Env: [
          `BERTH_HTPASSWD=${htpasswdEntry(input.username, input.password)}`,
          'REGISTRY_AUTH=htpasswd', 'REGISTRY_AUTH_HTPASSWD_REALM=Registry', 'REGISTRY_AUTH_HTPASSWD_PATH=/auth/htpasswd',
          'REGISTRY_STORAGE_FILESYSTEM_ROOTDIRECTORY=/var/lib/registry', `REGISTRY_HTTP_ADDR=0.0.0.0:${PORT}`,
        ],
        // The hash travels in the environment (it is no secret) and becomes the file the registry reads.
        Command: ['/bin/sh', '-c', 'mkdir -p /auth && printf "%s\\n" "$BERTH_HTPASSWD" > /auth/htpasswd && exec registry serve /etc/docker/registry/config.yml'],
        Mounts: [{ Type: 'volume', Source: `${SELF_HOSTED_REGISTRY}-data`, Target: '/var/lib/registry' }],
      },
    },
    Mode: { Replicated: { Replicas: 1 } },
    EndpointSpec: {
      Ports: [{ Protocol: 'tcp', TargetPort: PORT, PublishedPort: publishedPortOf(input.registryUrl), PublishMode: ctx.infra.config.publishMode }],
    },
  };
}

/** The registry image on the engine: one it cannot get would leave the task rejected forever, so it is refused at once. */
async function mustHaveImage(ctx: Context, image: string): Promise<void> {
  const engine = ctx.infra.engine;
  await engine.pullImage(image).catch(async (error: Error) => {
    if (!(await askEngine(() => engine.imageExists(image), 'registryUrl', 'Registry image'))) throw badRequest('registryUrl', `cannot be served: the registry image ${image} could not be pulled (${error.message})`);
  });
}

/**
 * Runs the registry service with these credentials for `registryId`, then `record`s it: what can be
 * refused is refused before anything is claimed (nothing appended); the one self-hosted registry
 * and its host port are claimed (409 naming registryUrl when either is taken) before the engine
 * runs it, and let go again if it does not.
 */
export async function enableSelfHostedRegistry<T>(
  ctx: Context, input: { registryUrl: string; username: string; password: string }, registryId: string, record: () => Promise<T>,
): Promise<T> {
  mustBeSelfHostedInput(input);
  const spec = registrySpec(ctx, input);
  await mustHaveImage(ctx, spec.TaskTemplate.ContainerSpec.Image);
  const port = hostPort(publishedPortOf(input.registryUrl));
  await claim(ctx, 'instance', SELF_HOSTED_REGISTRY, registryId, 'registryUrl').catch(() => {
    throw conflict('cannot be set: a self-hosted registry is already enabled; update or remove it first', 'registryUrl');
  });
  try {
    await claim(ctx, 'hostPort', port, registryId, 'registryUrl');
    const engine = ctx.infra.engine;
    const info = await askEngine(() => engine.upsertService(spec), 'registryUrl', 'Registry service');
    await askEngine(() => waitForRollout(engine, {
      service: SELF_HOSTED_REGISTRY, image: info.spec.TaskTemplate.ContainerSpec.Image, forceUpdate: info.spec.TaskTemplate.ForceUpdate ?? 0,
      replicas: 1, job: false, steadyMs: ctx.infra.config.taskSteadyMs, timeoutMs: ctx.infra.config.taskStartTimeoutMs, signal: new AbortController().signal, log: () => {},
    }), 'registryUrl', 'Registry service');
    return await record();
  } catch (error) {
    await release(ctx, 'hostPort', port, registryId);
    await release(ctx, 'instance', SELF_HOSTED_REGISTRY, registryId);
    throw error;
  }
}
