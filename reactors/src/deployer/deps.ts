// What the deployment work needs from the rest of Berth: the engine, the instance's secret box to
// open sealed credentials, the records it reads beside the application, and its settings.
import type { Certificate } from '@berth/shared/domain/certificate/certificate';
import type { Port } from '@berth/shared/domain/port/port';
import type { Redirect } from '@berth/shared/domain/redirect/redirect';
import type { Registry } from '@berth/shared/domain/registry/registry';
import type { Security } from '@berth/shared/domain/security/security';
import type { SecretBox } from '@berth/shared/crypto/secrets';
import type { ContainerEngine } from '@berth/shared/ports/container-engine';
import type { ForgeSettings } from '@berth/shared/domain/forge/forge';
import { FORGE_ID } from '@berth/shared/domain/forge/forge';
import { sourcesDirOf } from '@berth/shared/domain/compose/project-name';
import type { Deployment } from '@berth/shared/domain/deployment/record';
import type { Forge } from '@berth/shared/ports/forge';
import type { ReadStore } from '@berth/shared/ports/read-store';
import type { EventStore } from '@berth/shared/ports/event-store';
import { deploymentAggregate } from '@berth/shared/domain/deployment/deployment';
import { streamName } from '@berth/shared/events/event';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { engineAddress } from '@berth/shared/adapters/docker/address';
import { dockerHostOf } from './engine-host.ts';

export interface DeployerSettings {
  readonly publishMode: 'host' | 'ingress';
  /** Bound on the wait for a deploy's tasks to run; then it fails with the engine's reason. */
  readonly taskStartTimeoutMs: number;
  /** How long a deploy's tasks must have run for it to succeed. */
  readonly taskSteadyMs: number;
  /** Where sources are fetched to, one folder per application (redeploy rebuilds what is there). */
  readonly sourcesDir: string;
  /** The proxy's dynamic configuration folder. */
  readonly proxyDir: string;
  /** The network every application joins for the proxy to reach it (BERTH_PROXY_NETWORK). */
  readonly proxyNetwork: string;
  /** The engine's address as the pack CLIs take it (DOCKER_HOST); absent, they use their default. */
  readonly dockerHost?: string;
}

/** The records read beside an application; each list oldest first. */
export interface DeployerRecords {
  registry(registryId: string): Promise<Registry | null>;
  /** Every registry Berth knows: a compose file's images are pulled with the logins of theirs. */
  registries(): Promise<Registry[]>;
  ports(applicationId: string): Promise<Port[]>;
  redirects(applicationId: string): Promise<Redirect[]>;
  securities(applicationId: string): Promise<Security[]>;
  certificates(): Promise<Certificate[]>;
  /** The forge app Berth acts as, when an admin configured one. */
  forgeApp(): Promise<ForgeSettings | null>;
  /**
   * Whose a deployment was (an engine object it wrote names it), as the log keeps it: a pruned
   * deployment's record is gone, and the images and stacks it wrote may still be there.
   */
  deployment(deploymentId: string): Promise<Pick<Deployment, 'composeId' | 'applicationId'> | null>;
  /** The images the application's recorded deployments left, named as they were then (an earlier registry, prefix or appName). */
  deploymentImages(applicationId: string): Promise<string[]>;
  /** The image the application's last successful deployment left running; null before one. */
  lastImage(applicationId: string): Promise<string | null>;
}

export interface DeployerDeps {
  readonly engine: ContainerEngine;
  readonly forge: Forge;
  readonly secrets: SecretBox;
  readonly records: DeployerRecords;
  readonly settings: DeployerSettings;
}

const oldestFirst = <T>(docs: unknown[]) =>
  (docs as Array<T & { createdAt: string }>).sort((a, b) => a.createdAt.localeCompare(b.createdAt));

export function recordsOf(readStore: ReadStore, eventStore: EventStore): DeployerRecords {
  const childrenOf = <T>(collection: string) => async (applicationId: string) =>
    oldestFirst<T>(await readStore.find(collection, 'applicationId', applicationId));
  return {
    registry: async (registryId) => (await readStore.get('registry', registryId)) as Registry | null,
    registries: async () => oldestFirst<Registry>(await readStore.all('registry')),
    ports: childrenOf<Port>('port'),
    redirects: childrenOf<Redirect>('redirect'),
    securities: childrenOf<Security>('security'),
    certificates: async () => oldestFirst<Certificate>(await readStore.all('certificate')),
    forgeApp: async () => (await readStore.get('forge', FORGE_ID)) as ForgeSettings | null,
    deployment: async (deploymentId) => {
      const { events } = await eventStore.readStream(streamName(deploymentAggregate.name, deploymentId));
      const queued = events.find((event) => event.type === 'DeploymentQueued')?.data as Pick<Deployment, 'composeId' | 'applicationId'> | undefined;
      return queued ? { applicationId: queued.applicationId, composeId: queued.composeId } : null;
    },
    deploymentImages: async (applicationId) => (await readStore.find('deployment', 'applicationId', applicationId) as unknown as Deployment[])
      .flatMap((deployment) => (deployment.image ? [deployment.image] : [])),
    lastImage: async (applicationId) => {
      const done = (await readStore.find('deployment', 'applicationId', applicationId) as unknown as Deployment[])
        .filter((deployment) => deployment.status === 'done' && deployment.image);
      return done.sort((a, b) => (a.finishedAt ?? a.createdAt).localeCompare(b.finishedAt ?? b.createdAt)).at(-1)?.image ?? null;
    },
  };
}

/** The deployer's dependencies as the reactors role finds them in the infrastructure. */
export function deployerDepsOf(infra: Infrastructure): DeployerDeps {
  return {
    engine: infra.engine,
    forge: infra.forge,
    secrets: infra.secrets,
    records: recordsOf(infra.readStore, infra.eventStore),
    settings: {
      publishMode: infra.config.publishMode,
      taskStartTimeoutMs: infra.config.taskStartTimeoutMs,
      taskSteadyMs: infra.config.taskSteadyMs,
      sourcesDir: sourcesDirOf(infra.config.dataDir),
      proxyDir: infra.config.proxyDir,
      proxyNetwork: infra.config.proxyNetwork,
      dockerHost: dockerHostOf(engineAddress(infra.config.engineSocket)),
    },
  };
}
