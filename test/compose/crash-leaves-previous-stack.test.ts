// Berth killed (SIGKILL) while a stack deployment rolls out, then started again: the deployment
// ends `error`/"interrupted" and the stack is left as a graceful stop leaves it. Its services go back
// to the version before the deployment, one it created is removed (its task does not retry
// forever), and the deployment's log says so; the next deploy does not start from the leftover.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { TEST_IMAGE, engine, eventually } from '../support/engine.ts';
import { freePort } from '../support/http.ts';
import { removeStacks, served } from '../support/stacks.ts';
import { crashingBerth, deploymentWhen, holdPort } from '../deployer/crashing-berth.ts';

/** `web` serves on `port`; the second version adds `extra`, publishing a port another process holds. */
const file = (port: number, held: number | null) => `services:
  web:
    image: ${TEST_IMAGE}
    environment:
      VERSION: "\${V}"
    ports:
      - "${port}:8080"
${held === null ? '' : `  extra:
    image: ${TEST_IMAGE}
    ports:
      - "${held}:8080"
`}`;

describe('a stack deployment interrupted by a crash', () => {
  const namespaces: string[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await removeStacks(namespaces);
  });

  it('puts every service back after the restart: the updated one on its previous version, the created one removed', async () => {
    const held = await holdPort();
    cleanups.push(async () => held.server.close());
    const port = await freePort();
    const berth = await crashingBerth({ BERTH_TASK_START_TIMEOUT_MS: '180000' });
    cleanups.push(() => berth.close());
    await berth.start();
    const { projectId } = await berth.api.ok('project.create', { name: 'crashing stacks' });
    const { composeId, appName } = await berth.api.ok('compose.create', { name: 'pair', projectId, composeType: 'stack' });
    namespaces.push(appName);
    const envOf = async () => (await engine.inspectService(`${appName}_web`))?.spec.TaskTemplate.ContainerSpec.Env ?? [];

    await berth.api.ok('compose.update', { composeId, composeFile: file(port, null), env: 'V=one' });
    const { deploymentId: firstId } = await berth.api.ok('compose.deploy', { composeId });
    const first = await deploymentWhen(berth.api, firstId, (d) => d.status !== 'queued' && d.status !== 'running', 'the first deployment to end', 90_000);
    assert.equal(first.status, 'done', first.reason);
    assert.equal(await eventually('the first version to serve', () => served(port, '/')), 'berth-test httpd\n');

    await berth.api.ok('compose.update', { composeId, composeFile: file(port, held.port), env: 'V=two' });
    const { deploymentId } = await berth.api.ok('compose.deploy', { composeId });
    await eventually('web to roll out version two while extra waits for its port', async () =>
      (await envOf()).includes('VERSION=two') && (await engine.inspectService(`${appName}_extra`)) !== null, 60_000);
    assert.equal((await berth.api.ok('deployment.one', { deploymentId })).status, 'running');
    await berth.kill();

    await berth.start();
    const interrupted = await deploymentWhen(berth.api, deploymentId, (d) => d.status !== 'running', 'the deployment to end');
    assert.equal(interrupted.status, 'error');
    assert.equal(interrupted.reason, 'interrupted');
    assert.equal((await berth.api.ok('compose.one', { composeId })).composeStatus, 'error');
    await eventually('extra, which the interrupted deployment created, to be removed', async () => (await engine.inspectService(`${appName}_extra`)) === null, 30_000);
    await eventually('web to be back on version one', async () => (await envOf()).includes('VERSION=one'), 30_000)
      .catch(async (error: Error) => { throw new Error(`${error.message}: ${JSON.stringify(await envOf())}`); });
    assert.equal(await eventually('version one to serve again', () => served(port, '/'), 30_000), 'berth-test httpd\n');
    const { log } = await berth.api.ok('deployment.logs', { deploymentId });
    assert.match(log, new RegExp(`Removed the service ${appName}_extra this deployment created`));
    assert.match(log, new RegExp(`Restored the previous version of ${appName}_web`));
    assert.match(log, /Failed: interrupted/);
  });

  it('removes after the restart what an interrupted first deploy created (one before it failed): its services and its network', async () => {
    const held = await holdPort();
    cleanups.push(async () => held.server.close());
    const berth = await crashingBerth({ BERTH_TASK_START_TIMEOUT_MS: '180000' });
    cleanups.push(() => berth.close());
    await berth.start();
    const { projectId } = await berth.api.ok('project.create', { name: 'crashing first stack' });
    const { composeId, appName } = await berth.api.ok('compose.create', { name: 'first', projectId, composeType: 'stack' });
    namespaces.push(appName);
    const networks = () => execFileSync('docker', ['network', 'ls', '-q', '--filter', `label=com.docker.stack.namespace=${appName}`], { encoding: 'utf8' }).trim();
    // A deploy that fails leaves nothing; the next one is the first to bring anything up.
    await berth.api.ok('compose.update', { composeId, composeFile: 'services:\n  web:\n    image: "Not A Valid Image"\n    networks: [back]\nnetworks:\n  back: {}\n' });
    const { deploymentId: failedId } = await berth.api.ok('compose.deploy', { composeId });
    assert.equal((await deploymentWhen(berth.api, failedId, (d) => d.status !== 'queued' && d.status !== 'running', 'the failed deploy to end', 90_000)).status, 'error');
    await berth.api.ok('compose.update', { composeId, composeFile: `${file(held.port, null)}    networks: [back]\nnetworks:\n  back: {}\n`, env: 'V=one' });
    const { deploymentId } = await berth.api.ok('compose.deploy', { composeId });
    await eventually('web to be created, waiting for its port', async () => (await engine.inspectService(`${appName}_web`)) !== null && networks() !== '', 60_000);
    await berth.kill();

    await berth.start();
    const interrupted = await deploymentWhen(berth.api, deploymentId, (d) => d.status !== 'running', 'the deployment to end');
    assert.equal(interrupted.reason, 'interrupted');
    await eventually('its service and its network to be removed', async () => (await engine.inspectService(`${appName}_web`)) === null && networks() === '', 30_000);
    assert.match((await berth.api.ok('deployment.logs', { deploymentId })).log, new RegExp(`Removed what this failed first deploy of ${appName} created`));
  });
});
