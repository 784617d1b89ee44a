// registry.enableSelfHostedRegistry: runs an image registry as a swarm service, its logins an
// htpasswd entry of the given credentials and its images in a named volume, publishes it on the
// URL's port, and waits for it to run; the handler then records the registry. There is one such
// service: it is claimed in the log with its host port, and a second enable is refused (it would
// replace the first one's logins and port under the first one's record). registry.update of that
// record writes the service again the same way, so the login Berth records is the one it serves.
import { htpasswdEntry } from '@berth/shared/crypto/htpasswd';
import type { Registry } from '@berth/shared/domain/registry/registry';
import { mustBeBasicAuthName } from '@berth/shared/domain/security/security';
import { mustBeRegistryUrl, registryHostOf } from '@berth/shared/domain/registry/registry-url';
import { badRequest, conflict } from '@berth/shared/errors';
import type { ServiceInfo, ServiceSpec } from '@berth/shared/ports/container-engine';
import { waitForRollout } from '@berth/shared/runtime/task-watch';
import type { Context } from '../context.ts';
import { askEngine } from './engine.ts';
import { claim, holderOf, hostPort, moveName, release } from './reservations.ts';

export const SELF_HOSTED_REGISTRY = 'berth-registry';
const PORT = 5000;
/** Marks the service as Berth's self-hosted registry: a service of that name without it is an operator's. */
const SELF_HOSTED_LABEL = 'berth.selfHostedRegistry';
/** The record the service serves: a failed call removes the service only when it is the one this call wrote. */
const REGISTRY_ID_LABEL = 'berth.registryId';

/** The login and the place a self-hosted registry is served with. */
interface Served {
  readonly registryUrl: string;
  readonly username: string;
  readonly password: string;
}

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

function mustBeSelfHostedInput(input: Served): void {
  mustBeRegistryUrl(input.registryUrl);
  publishedPortOf(input.registryUrl);
  mustBeBasicAuthName(input.username);
}

function registrySpec(ctx: Context, input: Served, registryId: string): ServiceSpec {
  return {
    Name: SELF_HOSTED_REGISTRY,
    Labels: { [SELF_HOSTED_LABEL]: 'true', [REGISTRY_ID_LABEL]: registryId },
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
 * Puts the engine back as a failed call found it: the service this call made is removed (it would
 * serve the refused login on a port Berth lets go), and one it changed gets its former spec back.
 */
async function putBack(ctx: Context, before: ServiceInfo | null, registryId: string): Promise<void> {
  const engine = ctx.infra.engine;
  try {
    if (before) {
      await engine.upsertService(before.spec);
    } else if ((await engine.inspectService(SELF_HOSTED_REGISTRY))?.spec.Labels?.[REGISTRY_ID_LABEL] === registryId) {
      await engine.removeService(SELF_HOSTED_REGISTRY);
    }
  } catch {
    // The answer is the failure that brought us here; an engine that refuses this too refused it first.
  }
}

/**
 * Writes the registry service for `registryId` with this login on the URL's port, waits for its
 * task, then `record`s it; when any of it fails the engine is put back as it was. A service of that
 * name Berth did not make is left alone: CONFLICT naming registryUrl.
 */
async function serveThenRecord<T>(ctx: Context, served: Served, registryId: string, record: () => Promise<T>): Promise<T> {
  const engine = ctx.infra.engine;
  const before = await askEngine(() => engine.inspectService(SELF_HOSTED_REGISTRY), 'registryUrl', 'Registry service');
  if (before && before.spec.Labels?.[SELF_HOSTED_LABEL] !== 'true') {
    throw conflict(`cannot be served: a swarm service named ${SELF_HOSTED_REGISTRY} exists on the engine that Berth did not make; remove it first`, 'registryUrl');
  }
  try {
    const info = await askEngine(() => engine.upsertService(registrySpec(ctx, served, registryId)), 'registryUrl', 'Registry service');
    await askEngine(() => waitForRollout(engine, {
      service: SELF_HOSTED_REGISTRY, image: info.spec.TaskTemplate.ContainerSpec.Image, forceUpdate: info.spec.TaskTemplate.ForceUpdate ?? 0,
      replicas: 1, job: false, steadyMs: ctx.infra.config.taskSteadyMs, timeoutMs: ctx.infra.config.taskStartTimeoutMs, signal: new AbortController().signal, log: () => {},
    }), 'registryUrl', 'Registry service');
    return await record();
  } catch (error) {
    await putBack(ctx, before, registryId);
    throw error;
  }
}

/**
 * Runs the registry service with these credentials for `registryId`, then `record`s it: what the
 * input alone refuses is refused before anything is claimed (nothing appended); the one
 * self-hosted registry and its host port are claimed (409 naming registryUrl when either is taken)
 * before the engine runs it, and let go again, with the service it made, if it does not.
 */
export async function enableSelfHostedRegistry<T>(ctx: Context, input: Served, registryId: string, record: () => Promise<T>): Promise<T> {
  mustBeSelfHostedInput(input);
  await mustHaveImage(ctx, ctx.infra.config.registryImage);
  const port = hostPort(publishedPortOf(input.registryUrl));
  await claim(ctx, 'instance', SELF_HOSTED_REGISTRY, registryId, 'registryUrl').catch(() => {
    throw conflict('cannot be set: a self-hosted registry is already enabled; update or remove it first', 'registryUrl');
  });
  try {
    await claim(ctx, 'hostPort', port, registryId, 'registryUrl');
    return await serveThenRecord(ctx, input, registryId, record);
  } catch (error) {
    await release(ctx, 'hostPort', port, registryId);
    await release(ctx, 'instance', SELF_HOSTED_REGISTRY, registryId);
    throw error;
  }
}

/**
 * Whether the record is the one whose service runs: it holds the self-hosted registry's claim. A
 * record registry.create typed selfHosted (a registry run elsewhere) has no service to change.
 */
export const servesRegistry = async (ctx: Context, registry: Pick<Registry, 'registryId' | 'registryType'>): Promise<boolean> =>
  registry.registryType === 'selfHosted' && await holderOf(ctx, 'instance', SELF_HOSTED_REGISTRY) === registry.registryId;

/**
 * registry.update of the registry Berth runs: a new login or port is written to its service, which
 * must run before the change is recorded; a refusal leaves both the record and the service as
 * they were. Another URL port moves the service and its port claim there rather than being
 * refused: pushes and pulls go to the port the URL names (as enable publishes it), and a move
 * keeps the record, so the applications set to this registry need no change.
 */
export async function updateSelfHostedRegistry<T>(
  ctx: Context, current: Registry, change: Partial<Served> & { registryType?: string }, record: () => Promise<T>,
): Promise<T> {
  if (change.registryType !== undefined && change.registryType !== 'selfHosted') {
    // Its record would no longer take its service and claims along when removed.
    throw badRequest('registryType', `cannot change: this registry runs as the service ${SELF_HOSTED_REGISTRY}; remove it, then create the other registry`);
  }
  const password = ctx.secrets.open(current.password);
  const served: Served = {
    registryUrl: change.registryUrl ?? current.registryUrl, username: change.username ?? current.username, password: change.password ?? password,
  };
  mustBeSelfHostedInput(served);
  const from = hostPort(publishedPortOf(current.registryUrl));
  const to = hostPort(publishedPortOf(served.registryUrl));
  // Another host alone (a DNS name for the same machine) changes nothing the service serves.
  if (from === to && served.username === current.username && served.password === password) return record();
  await mustHaveImage(ctx, ctx.infra.config.registryImage);
  return moveName(ctx, 'hostPort', from, to, current.registryId, () => serveThenRecord(ctx, served, current.registryId, record), 'registryUrl');
}
