// A host port an application's service publishes stays held in the one namespace of host ports
// until the engine lets it go: a port changed or removed on a deployed application is handed to the
// application, which the next successful rollout (or the application's removal) lets go of.
// Before, the change let it go at once, and another service's port took it while the engine still
// published it there: that service's deployment then failed on a port in use.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, eventually, httpBody, removeDeployed } from '../support/engine.ts';
import { freePort } from '../support/http.ts';
import { until } from '../support/deployer.ts';

describe('a deployed application\'s host ports', () => {
  let berth: TestBerth;
  let projectId: string;
  const apps: string[] = [];
  before(async () => {
    berth = await startBerthWithReactors();
    ({ projectId } = await berth.ok('project.create', { name: 'held ports' }));
  });
  after(async () => {
    await removeDeployed(apps);
    await berth.stop();
  });

  const app = async (name: string) => {
    const { applicationId, appName } = await berth.ok('application.create', { name, projectId });
    apps.push(appName);
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: TEST_IMAGE });
    return applicationId as string;
  };
  const deployed = async (applicationId: string) => {
    const { deploymentId } = await berth.ok('application.deploy', { applicationId });
    const ended = await until(berth, deploymentId, 'done', 90_000);
    assert.equal(ended.status, 'done', ended.reason);
  };
  const portOf = (applicationId: string, publishedPort: number) => berth.call('port.create', { applicationId, publishedPort, targetPort: 8080 });

  it('keeps a changed port held while the service publishes it, lets its port take it back, and lets it go after the next rollout', async () => {
    const [first, second] = [await freePort(), await freePort()];
    const serving = await app('serving');
    const other = await app('other');
    const { portId } = await berth.ok('port.create', { applicationId: serving, publishedPort: first, targetPort: 8080 });
    await deployed(serving);
    assert.equal(await eventually('the first port to serve', () => httpBody(first)), 'berth-test httpd\n');

    await berth.ok('port.update', { portId, publishedPort: second, targetPort: 8080 });
    // The engine still publishes the first port for it.
    assert.equal(await httpBody(first), 'berth-test httpd\n');
    await berth.refused('port.create', { applicationId: other, publishedPort: first, targetPort: 8080 }, 409, 'publishedPort');
    // Its own port takes it back, and lets it go again.
    await berth.ok('port.update', { portId, publishedPort: first, targetPort: 8080 });
    await berth.ok('port.update', { portId, publishedPort: second, targetPort: 8080 });
    await berth.refused('port.create', { applicationId: other, publishedPort: first, targetPort: 8080 }, 409, 'publishedPort');

    await deployed(serving);
    assert.equal(await eventually('the second port to serve', () => httpBody(second)), 'berth-test httpd\n');
    assert.equal((await portOf(other, first)).status, 200);
  });

  it('keeps a removed port held while the service publishes it, until the application is deleted and its service gone', async () => {
    const port = await freePort();
    const serving = await app('removed-port');
    const other = await app('waiting');
    const { portId } = await berth.ok('port.create', { applicationId: serving, publishedPort: port, targetPort: 8080 });
    await deployed(serving);
    await berth.ok('port.delete', { portId });
    await berth.refused('port.create', { applicationId: other, publishedPort: port, targetPort: 8080 }, 409, 'publishedPort');
    await berth.ok('application.delete', { applicationId: serving });
    await eventually('the port to be free once the deleted application\'s service is gone', async () => (await portOf(other, port)).status === 200, 60_000);
  });

  it('lets a changed port go at once on an application never deployed', async () => {
    const port = await freePort();
    const idle = await app('never-deployed');
    const other = await app('next');
    const { portId } = await berth.ok('port.create', { applicationId: idle, publishedPort: port, targetPort: 8080 });
    await berth.ok('port.update', { portId, publishedPort: await freePort(), targetPort: 8080 });
    assert.equal((await portOf(other, port)).status, 200);
  });
});
