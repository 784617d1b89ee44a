// registry.enableSelfHostedRegistry: runs an image registry as a swarm service, its logins an
// htpasswd entry of the given credentials and its images in a named volume, publishes it on the
// URL's port (5000 by default), and waits for it to run; the handler then records the registry.
import { htpasswdEntry } from '@berth/shared/crypto/htpasswd';
import { mustBeBasicAuthName } from '@berth/shared/domain/security/security';
import { mustBeRegistryUrl, registryHostOf } from '@berth/shared/domain/registry/registry-url';
import { badRequest } from '@berth/shared/errors';
import type { ServiceSpec } from '@berth/shared/ports/container-engine';
import { waitForRollout } from '@berth/shared/runtime/task-watch';
import type { Context } from '../context.ts';
import { askEngine } from './engine.ts';

export const SELF_HOSTED_REGISTRY = 'berth-registry';
const PORT = 5000;

function publishedPortOf(registryUrl: string): number {
  const port = registryHostOf(registryUrl).match(/:(\d+)$/)?.[1];
  const number = port === undefined ? PORT : Number(port);
  if (number < 1 || number > 65535) throw badRequest('registryUrl', 'names a port out of 1-65535');
  return number;
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

/** Runs (or updates) the registry service with these credentials; resolves once its task runs. */
export async function runSelfHostedRegistry(input: { registryUrl: string; username: string; password: string }, ctx: Context): Promise<void> {
  mustBeRegistryUrl(input.registryUrl);
  mustBeBasicAuthName(input.username);
  const engine = ctx.infra.engine;
  const spec = registrySpec(ctx, input);
  const image = spec.TaskTemplate.ContainerSpec.Image;
  // An image the engine cannot get would leave the task rejected forever: refuse at once instead.
  await engine.pullImage(image).catch(async (error: Error) => {
    if (!(await askEngine(() => engine.imageExists(image), 'registryUrl', 'Registry image'))) throw badRequest('registryUrl', `the registry image ${image} could not be pulled: ${error.message}`);
  });
  const info = await askEngine(() => engine.upsertService(spec), 'registryUrl', 'Registry service');
  await askEngine(() => waitForRollout(engine, {
    service: SELF_HOSTED_REGISTRY, image: info.spec.TaskTemplate.ContainerSpec.Image, forceUpdate: info.spec.TaskTemplate.ForceUpdate ?? 0,
    replicas: 1, timeoutMs: ctx.infra.config.taskStartTimeoutMs, signal: new AbortController().signal, log: () => {},
  }), 'registryUrl', 'Registry service');
}
