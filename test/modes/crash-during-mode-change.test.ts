// Berth killed in the middle of a deploy that changes the service's mode (which the engine cannot
// change in place, so the service is replaced): the restart's recovery leaves the previous
// deployment's service running, wherever the kill landed. The kill is the deployment work frozen
// at a point of its engine calls (nothing after it reaches the engine, as after a SIGKILL); the
// restart is a fresh deployer's recovery of that deployment, on the real engine.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { TEST_IMAGE, uniqueName, engine, eventually, httpBody } from '../support/engine.ts';
import { deploy, deployer, portOf, testApplication } from '../support/deploy-work.ts';
import { freePort } from '../support/http.ts';
import type { Application } from '@berth/shared/domain/application/record';
import { SERVICE_LABEL, type ContainerEngine, type ServiceSpec } from '@berth/shared/ports/container-engine';
import { runDeploymentWith } from '@berth/reactors/deployer/run';

const d = deployer({ taskStartTimeoutMs: 20_000, taskSteadyMs: 1000 });
const apps: Application[] = [];
after(async () => { for (const app of apps) await d.actions.remove(app).catch(() => {}); });

type Freeze = (method: string, args: unknown[]) => 'before' | 'after' | null;

/** The engine, until `freezeAt` says a call is the last one (before or after it runs): from then on nothing answers. */
function freezingEngine(freezeAt: Freeze): ContainerEngine {
  let frozen = false;
  const never = new Promise<never>(() => {});
  return new Proxy(engine, {
    get(target, method: string) {
      const real = (target as unknown as Record<string, unknown>)[method];
      if (typeof real !== 'function') return real;
      return async (...args: unknown[]) => {
        if (frozen) return never;
        const when = freezeAt(method, args);
        if (when === 'before') frozen = true;
        if (frozen) return never;
        const answer = await (real as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (when === 'after') frozen = true;
        return frozen ? never : answer;
      };
    },
  });
}

const modeOf = async (name: string) => Object.keys((await engine.inspectService(name))?.spec.Mode ?? {})[0] ?? null;

/** A replicated application deployed on `port`, then a deploy to global mode killed where `freezeAt` says, then the restart's recovery. */
async function crashMidModeChange(port: number, freezeAt: (app: Application) => Freeze) {
  const app = testApplication({ appName: uniqueName('berth-test-modes-crash'), sourceType: 'container', containerImage: TEST_IMAGE });
  apps.push(app);
  d.ports.set(app.applicationId, [portOf(app, port)]);
  assert.equal((await deploy(d, app)).error, null);
  assert.equal(await eventually('the first version to serve', () => httpBody(port)), 'berth-test httpd\n');

  const deploymentId = randomBytes(10).toString('base64url');
  d.deployments.set(deploymentId, { applicationId: app.applicationId, composeId: null });
  const killed = runDeploymentWith({ ...d.deps, engine: freezingEngine(freezeAt(app)) });
  const log: string[] = [];
  void killed({ deploymentId, kind: 'deploy', application: { ...app, modeOrch: { Global: {} } }, image: null, log: (line) => log.push(line), signal: new AbortController().signal });
  return { app, deploymentId, log };
}

async function recoverAndExpectThePreviousService(port: number, crashed: Awaited<ReturnType<typeof crashMidModeChange>>) {
  const { app, deploymentId, log } = crashed;
  await runDeploymentWith(d.deps).recover!({ deploymentId, application: app, log: (line) => log.push(line) });
  await eventually('the previous (replicated) version to serve again', async () =>
    (await modeOf(app.appName)) === 'Replicated' && (await httpBody(port)) === 'berth-test httpd\n', 30_000)
    .catch(async (error: Error) => { throw new Error(`${error.message}; the service is ${await modeOf(app.appName)}\n${log.join('\n')}`); });
}

test('a kill while the old service stops for a mode change leaves the previous service running after recovery', async () => {
  const port = await freePort();
  const crashed = await crashMidModeChange(port, (app) => (method, args) =>
    (method === 'listContainers' && (args[0] as { label?: string } | undefined)?.label === `${SERVICE_LABEL}=${app.appName}` ? 'before' : null));
  await eventually('the kill to land', async () => (await httpBody(port)) === null, 30_000);
  await recoverAndExpectThePreviousService(port, crashed);
});

test('a kill once the new-mode service is created leaves the previous service running after recovery', async () => {
  const port = await freePort();
  const crashed = await crashMidModeChange(port, () => (method, args) =>
    (method === 'upsertService' && 'Global' in ((args[0] as ServiceSpec).Mode ?? {}) ? 'after' : null));
  await eventually('the new-mode service to be created', async () => (await modeOf(crashed.app.appName)) === 'Global', 30_000);
  await recoverAndExpectThePreviousService(port, crashed);
});
