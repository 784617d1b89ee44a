// The deployment work driven directly against the real engine: an application record, the
// records beside it, and a deployment's log and cancellation, without the queue around them.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretBox } from '@berth/shared/crypto/secrets';
import { newApplication, type Application } from '@berth/shared/domain/application/record';
import type { Port } from '@berth/shared/domain/port/port';
import type { Registry } from '@berth/shared/domain/registry/registry';
import type { Redirect } from '@berth/shared/domain/redirect/redirect';
import type { Security } from '@berth/shared/domain/security/security';
import type { Certificate } from '@berth/shared/domain/certificate/certificate';
import type { DeployerDeps } from '@berth/reactors/deployer/deps';
import { runDeploymentWith } from '@berth/reactors/deployer/run';
import { serviceActionsWith } from '@berth/reactors/deployer/actions';
import type { DeploymentKind, DeploymentResult } from '@berth/reactors/deployer/work';
import { engine, uniqueName } from './engine.ts';
import type { ForgeSettings } from '@berth/shared/domain/forge/forge';
import type { Deployment } from '@berth/shared/domain/deployment/record';
import { restForge } from '@berth/shared/adapters/forge/rest';
import { DEFAULT_PROXY_NETWORK } from '@berth/shared/runtime/config';

export interface Deployer {
  readonly deps: DeployerDeps;
  readonly ports: Map<string, Port[]>;
  readonly registries: Map<string, Registry>;
  readonly redirects: Map<string, Redirect[]>;
  readonly securities: Map<string, Security[]>;
  readonly certificates: Certificate[];
  /** The forge app configured, when one is (at most one). */
  readonly forgeApps: ForgeSettings[];
  /** The deployments `deploy` ran, as their records say whose they were (the images they tagged are that application's). */
  readonly deployments: Map<string, Pick<Deployment, 'composeId' | 'applicationId'>>;
  /** The image each application's last successful `deploy` left running, by its id. */
  readonly lastImages: Map<string, string>;
  /** The images each application's successful `deploy`s ran, by its id, as its deployment records keep them. */
  readonly ranImages: Map<string, string[]>;
  readonly run: ReturnType<typeof runDeploymentWith>;
  readonly actions: ReturnType<typeof serviceActionsWith>;
}

export function deployer(options: { taskStartTimeoutMs?: number; taskSteadyMs?: number; proxyNetwork?: string } = {}): Deployer {
  const ports = new Map<string, Port[]>();
  const registries = new Map<string, Registry>();
  const redirects = new Map<string, Redirect[]>();
  const securities = new Map<string, Security[]>();
  const certificates: Certificate[] = [];
  const forgeApps: ForgeSettings[] = [];
  const deployments = new Map<string, Pick<Deployment, 'composeId' | 'applicationId'>>();
  const lastImages = new Map<string, string>();
  const ranImages = new Map<string, string[]>();
  const dir = mkdtempSync(join(tmpdir(), 'berth-deployer-'));
  const deps: DeployerDeps = {
    engine,
    forge: restForge,
    secrets: new SecretBox(randomBytes(32)),
    records: {
      registry: async (id) => registries.get(id) ?? null,
      registries: async () => [...registries.values()],
      ports: async (id) => ports.get(id) ?? [],
      redirects: async (id) => redirects.get(id) ?? [],
      securities: async (id) => securities.get(id) ?? [],
      certificates: async () => certificates,
      forgeApp: async () => forgeApps[0] ?? null,
      deployment: async (id) => deployments.get(id) ?? null,
      lastImage: async (applicationId) => lastImages.get(applicationId) ?? null,
      deploymentImages: async (applicationId) => ranImages.get(applicationId) ?? [],
    },
    settings: {
      publishMode: 'host', taskStartTimeoutMs: options.taskStartTimeoutMs ?? 20_000, taskSteadyMs: options.taskSteadyMs ?? 1000,
      sourcesDir: join(dir, 'sources'), proxyDir: join(dir, 'proxy'), proxyNetwork: options.proxyNetwork ?? DEFAULT_PROXY_NETWORK,
    },
  };
  return { deps, ports, registries, redirects, securities, certificates, forgeApps, deployments, lastImages, ranImages, run: runDeploymentWith(deps), actions: serviceActionsWith(deps) };
}

export function testApplication(fields: Partial<Application> = {}): Application {
  const applicationId = randomBytes(8).toString('hex');
  return {
    ...newApplication({
      applicationId, projectId: 'p', name: 'app', appName: uniqueName('berth-app'),
      description: null, refreshToken: null, createdAt: new Date().toISOString(),
    }),
    ...fields,
  };
}

export const portOf = (app: Application, publishedPort: number, targetPort = 8080): Port => ({
  portId: randomBytes(6).toString('hex'), publishedPort, targetPort, protocol: 'tcp',
  applicationId: app.applicationId, createdAt: new Date().toISOString(),
});

export interface Deployed {
  readonly result: DeploymentResult | null;
  readonly error: Error | null;
  readonly log: string[];
}

/** Runs one deployment to its end, keeping its log and its failure instead of throwing. */
export async function deploy(d: Deployer, application: Application, kind: DeploymentKind = 'deploy', image: string | null = null,
  signal = new AbortController().signal): Promise<Deployed> {
  const log: string[] = [];
  const deploymentId = randomBytes(10).toString('base64url');
  d.deployments.set(deploymentId, { applicationId: application.applicationId, composeId: null });
  try {
    const result = await d.run({ deploymentId, kind, application, image, log: (line) => log.push(line), signal });
    d.lastImages.set(application.applicationId, result.image);
    d.ranImages.set(application.applicationId, [...(d.ranImages.get(application.applicationId) ?? []), result.image]);
    return { result, error: null, log };
  } catch (error) {
    return { result: null, error: error as Error, log };
  }
}
