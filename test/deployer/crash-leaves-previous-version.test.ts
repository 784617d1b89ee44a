// Berth killed (SIGKILL) while a deployment rolls out, then started again: the deployment ends
// `error`/"interrupted" and the engine is left as a graceful stop leaves it. A service the
// deployment created is removed (no task retries forever); a service it was updating runs the
// version before it again and serves. The deployment's log says what was done.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { TEST_IMAGE, engine, eventually, httpBody, removeDeployed } from '../support/engine.ts';
import { freePort } from '../support/http.ts';
import { crashingBerth, deploymentWhen, holdPort, type CrashingBerth } from './crashing-berth.ts';

/** Long enough that the deployment still waits for its tasks when Berth is killed. */
const TASKS_WAIT_MS = '180000';

describe('an application deployment interrupted by a crash', () => {
  const apps: string[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await removeDeployed(apps);
  });

  const berthWith = async (): Promise<CrashingBerth> => {
    const berth = await crashingBerth({ BERTH_TASK_START_TIMEOUT_MS: TASKS_WAIT_MS });
    cleanups.push(() => berth.close());
    await berth.start();
    return berth;
  };

  const application = async (berth: CrashingBerth, name: string, publishedPort: number) => {
    const { projectId } = await berth.api.ok('project.create', { name: `crash ${name}` });
    const { applicationId, appName } = await berth.api.ok('application.create', { name, projectId });
    apps.push(appName);
    await berth.api.ok('application.saveContainerProvider', { applicationId, containerImage: TEST_IMAGE });
    const { portId } = await berth.api.ok('port.create', { applicationId, publishedPort, targetPort: 8080 });
    return { applicationId, appName: appName as string, portId: portId as string };
  };

  /** Deploys, waits until the engine has the spec the deployment wrote (publishing `port`) while it runs, then kills Berth. */
  const crashWhileRollingOut = async (berth: CrashingBerth, applicationId: string, appName: string, port: number) => {
    const { deploymentId } = await berth.api.ok('application.deploy', { applicationId });
    await eventually('the deployment to write its service spec', async () => {
      const ports = (await engine.inspectService(appName))?.spec.EndpointSpec?.Ports ?? [];
      return ports.some((binding) => binding.PublishedPort === port);
    }, 60_000);
    assert.equal((await berth.api.ok('deployment.one', { deploymentId })).status, 'running');
    await berth.kill();
    return deploymentId as string;
  };

  it('removes, after the restart, the service the deployment created: it does not retry forever', async () => {
    const held = await holdPort();
    cleanups.push(async () => held.server.close());
    const berth = await berthWith();
    const { applicationId, appName } = await application(berth, 'never-starts', held.port);
    const deploymentId = await crashWhileRollingOut(berth, applicationId, appName, held.port);
    assert.notEqual(await engine.inspectService(appName), null, 'the crash left the half-created service');

    await berth.start();
    const interrupted = await deploymentWhen(berth.api, deploymentId, (d) => d.status !== 'running', 'the deployment to end');
    assert.equal(interrupted.status, 'error');
    assert.equal(interrupted.reason, 'interrupted');
    assert.equal((await berth.api.ok('application.one', { applicationId })).applicationStatus, 'error');
    await eventually('the service the interrupted deployment created to be removed', async () => (await engine.inspectService(appName)) === null, 30_000);
    const { log } = await berth.api.ok('deployment.logs', { deploymentId });
    assert.match(log, new RegExp(`Removed the service ${appName} this deployment created`));
    assert.match(log, /Failed: interrupted/);
  });

  it('rolls back, after the restart, the service the deployment was updating: the previous version serves again', async () => {
    const held = await holdPort();
    cleanups.push(async () => held.server.close());
    const port = await freePort();
    const berth = await berthWith();
    const { applicationId, appName, portId } = await application(berth, 'updated', port);
    const { deploymentId: firstId } = await berth.api.ok('application.deploy', { applicationId });
    const first = await deploymentWhen(berth.api, firstId, (d) => d.status !== 'queued' && d.status !== 'running', 'the first deployment to end', 90_000);
    assert.equal(first.status, 'done', first.reason);
    assert.equal(await eventually('the first version to serve', () => httpBody(port)), 'berth-test httpd\n');

    // The next version publishes a port another process holds: its task never starts.
    await berth.api.ok('port.update', { portId, publishedPort: held.port, targetPort: 8080 });
    const deploymentId = await crashWhileRollingOut(berth, applicationId, appName, held.port);

    await berth.start();
    const interrupted = await deploymentWhen(berth.api, deploymentId, (d) => d.status !== 'running', 'the deployment to end');
    assert.equal(interrupted.status, 'error');
    assert.equal(interrupted.reason, 'interrupted');
    const publishedOf = async () => ((await engine.inspectService(appName))?.spec.EndpointSpec?.Ports ?? []).map((binding) => binding.PublishedPort);
    await eventually('the service to be back on its previous spec', async () => (await publishedOf()).join() === String(port), 30_000)
      .catch(async (error: Error) => { throw new Error(`${error.message}: it publishes ${(await publishedOf()).join()}`); });
    assert.equal(await eventually('the previous version to serve again', () => httpBody(port), 30_000), 'berth-test httpd\n');
    const { log } = await berth.api.ok('deployment.logs', { deploymentId });
    assert.match(log, new RegExp(`Restored the previous version of ${appName}`));
    assert.match(log, /Failed: interrupted/);
  });
});
