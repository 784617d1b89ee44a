// Berth killed (SIGKILL) while a database redeploy rolls out a spec its task cannot start (its new
// host port held by another process), then started again: the restart puts the service back to
// the version that served, as it does an application's, and the database serves on its old port.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { engine, eventually } from '../support/engine.ts';
import { DATABASE_IMAGE, freePort, isReady, removeService } from '../support/database-services.ts';
import { crashingBerth, deploymentWhen, holdPort, type CrashingBerth } from './crashing-berth.ts';

const publishedPorts = async (appName: string) =>
  ((await engine.inspectService(appName))?.spec.EndpointSpec?.Ports ?? []).map((binding) => binding.PublishedPort);

describe('a database redeploy interrupted by a crash', () => {
  let berth: CrashingBerth;
  let appName = '';
  const cleanups: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    if (appName) await removeService(appName);
  });

  it('puts the service back to the version that served after the restart', async () => {
    berth = await crashingBerth({ BERTH_TASK_START_TIMEOUT_MS: '180000', BERTH_ACTION_WAIT_MS: '180000' });
    cleanups.push(() => berth.close());
    await berth.start();
    const { projectId } = await berth.api.ok('project.create', { name: 'crash db' });
    const created = await berth.api.ok('dbepsilon.create', {
      name: 'crashed', appName: 'crashed', projectId, containerImage: DATABASE_IMAGE.dbepsilon, databasePassword: 'Crash-Pass-1',
    });
    appName = created.appName;
    const port = await freePort();
    await berth.api.ok('dbepsilon.saveExternalPort', { dbepsilonId: created.dbepsilonId, externalPort: port });
    await berth.api.ok('dbepsilon.deploy', { dbepsilonId: created.dbepsilonId });
    assert.deepEqual(await publishedPorts(appName), [port]);

    const held = await holdPort();
    cleanups.push(async () => held.server.close());
    // The move redeploys at once; Berth is killed as soon as the engine has the new spec.
    void berth.api.call('dbepsilon.saveExternalPort', { dbepsilonId: created.dbepsilonId, externalPort: held.port }).catch(() => {});
    await eventually('the redeploy to write its spec', async () => (await publishedPorts(appName)).includes(held.port), 60_000);
    await berth.kill();

    await berth.start();
    const [latest] = await berth.api.ok('deployment.all', { databaseId: created.dbepsilonId });
    const ended = await deploymentWhen(berth.api, latest.deploymentId, (d) => d.status !== 'running' && d.status !== 'queued', 'the redeploy to end', 90_000);
    assert.equal(ended.status, 'error');
    await eventually('the previous version back on its port', async () => {
      const ports = await publishedPorts(appName);
      return ports.length === 1 && ports[0] === port;
    }, 60_000);
    await eventually('the database to serve again', () => isReady('dbepsilon', appName).catch(() => false), 90_000);
    const { log } = await berth.api.ok('deployment.logs', { deploymentId: latest.deploymentId });
    assert.match(log, /Restored the previous version/);
    assert.match(log, /Failed: interrupted/);
  });
});
