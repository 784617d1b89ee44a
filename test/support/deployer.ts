// A Berth whose reactors run a test double of the engine work: each deployment waits at a gate the
// test opens (or fails, or is cancelled), so the queue, cancel and recovery can be watched step by
// step. Only these queue tests use it; production and the end-to-end runs use the real engine.
import { startReactors } from '@berth/reactors/role';
import type { DeploymentWork } from '@berth/reactors/deployer/work';
import type { SecretBox } from '@berth/shared/crypto/secrets';
import type { Application } from '@berth/shared/domain/application/record';
import type { Config } from '@berth/shared/runtime/config';
import type { Clock } from '@berth/shared/ports/clock';
import { startBerth, type TestBerth } from './berth.ts';

export interface Gate {
  readonly work: DeploymentWork;
  open(): void;
  fail(reason: string): void;
}

export interface WorkDouble {
  /** Deployment ids in the order their work started. */
  readonly started: string[];
  /** Actions the engine was asked for, as `<action> <appName>`. */
  readonly actions: string[];
  /** Deployments whose work runs now. */
  readonly running: Map<string, Gate>;
  /** Resolves once the work of `deploymentId` runs. */
  runs(deploymentId: string, ms?: number): Promise<Gate>;
  /** Lets every started deployment finish as they start. */
  autoFinish: boolean;
  /** The reason the next action fails with, when set. */
  failNextAction: string | null;
}

export function workDouble(secrets: SecretBox) {
  const double: WorkDouble = {
    started: [], actions: [], running: new Map(), autoFinish: false, failNextAction: null,
    async runs(deploymentId, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (!double.running.has(deploymentId)) {
        if (Date.now() > deadline) throw new Error(`the work of ${deploymentId} did not start within ${ms} ms (started: ${double.started.join(', ')})`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return double.running.get(deploymentId)!;
    },
  };
  const run = (work: DeploymentWork) => new Promise<{ image: string; revision: string | null }>((resolve, reject) => {
    double.started.push(work.deploymentId);
    work.log(`building ${work.application.appName} with ${work.application.containerImage ?? 'nothing'}`);
    if (work.application.username) work.log(`login as ${work.application.username} with ${work.application.password ? secrets.open(work.application.password) : ''}`);
    const end = () => double.running.delete(work.deploymentId);
    const gate: Gate = {
      work,
      open: () => { end(); resolve({ image: work.image ?? `${work.application.appName}:${work.deploymentId}`, revision: 'abc123' }); },
      fail: (reason) => { end(); reject(new Error(reason)); },
    };
    work.signal.addEventListener('abort', () => { end(); reject(new Error('aborted')); }, { once: true });
    double.running.set(work.deploymentId, gate);
    if (double.autoFinish) gate.open();
  });
  const action = (name: string) => async (application: Application) => {
    const reason = double.failNextAction;
    double.failNextAction = null;
    if (reason) throw new Error(reason);
    double.actions.push(`${name} ${application.appName}`);
  };
  const pruneImages = async (application: Pick<Application, 'appName'>, images: readonly string[]) => {
    double.actions.push(`pruneImages ${application.appName} ${images.join(' ')}`);
  };
  return { double, work: { run, actions: { start: action('start'), stop: action('stop'), reload: action('reload'), remove: action('remove'), pruneImages } } };
}

export async function startDeployingBerth(options: { dataDir?: string; config?: Partial<Config>; clock?: Clock } = {}) {
  const berth: TestBerth = await startBerth({ ...options, config: { roles: ['projections', 'relay'], actionWaitMs: 5000, ...options.config } });
  const { double, work } = workDouble(berth.berth.infrastructure.secrets);
  const reactors = await startReactors(berth.berth.infrastructure, work);
  return {
    berth, double, reactors,
    async stop(stopOptions: { keepData?: boolean } = {}) {
      await reactors.stop();
      await berth.stop(stopOptions);
    },
  };
}

/** Polls `deployment.one` until its status is `status`. */
export async function until(berth: TestBerth, deploymentId: string, status: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const deployment = await berth.ok('deployment.one', { deploymentId });
    if (deployment.status === status) return deployment;
    if (Date.now() > deadline) throw new Error(`deployment ${deploymentId} is ${deployment.status}, not ${status}, after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A project of its own and an application in it that deploys the image `<name>:1`: the application's id. */
export async function newImageApp(berth: TestBerth, name: string): Promise<string> {
  const { projectId } = await berth.ok('project.create', { name: `p-${name}` });
  const { applicationId } = await berth.ok('application.create', { name, projectId });
  await berth.ok('application.saveContainerProvider', { applicationId, containerImage: `${name}:1` });
  return applicationId as string;
}
