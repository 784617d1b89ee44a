// The values an application's container sees are the ones its env text stands for: an escaped
// quote inside a double-quoted value, a backslash written \\ (so \\n is not a newline), a newline
// written \n, and a single-quoted value as written. Deployed on the real engine.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, engine, removeDeployed, uniqueName } from '../support/engine.ts';
import { until } from '../support/deployer.ts';

const ENV = [
  String.raw`S="say \"hi\" now"`,
  String.raw`P="C:\\new"`,
  String.raw`N="one\ntwo"`,
  String.raw`R="\d+"`,
  String.raw`Q='C:\\new'`,
].join('\n');

describe('an env text with escapes, deployed', () => {
  let berth: TestBerth;
  const apps: string[] = [];
  before(async () => {
    berth = await startBerthWithReactors();
  });
  after(async () => {
    await removeDeployed(apps);
    await berth.stop();
  });

  it('gives the container the values the double-quoted escapes stand for', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'env escapes' });
    const { applicationId, appName } = await berth.ok('application.create', { name: 'escapes', appName: uniqueName('berth-test-fs'), projectId });
    apps.push(appName);
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: TEST_IMAGE });
    await berth.ok('application.saveEnvironment', { applicationId, env: ENV });
    const { deploymentId } = await berth.ok('application.deploy', { applicationId });
    const deployment = await until(berth, deploymentId, 'done', 90_000);
    assert.equal(deployment.status, 'done', deployment.reason);
    const container = (await engine.listContainers({ label: `com.docker.swarm.service.name=${appName}` })).find((found) => found.state === 'running');
    assert.ok(container, `${appName} runs no container`);
    const env = ((await engine.inspectContainer(container.containerId)) as { Config?: { Env?: string[] } } | null)?.Config?.Env ?? [];
    for (const expected of ['S=say "hi" now', String.raw`P=C:\new`, 'N=one\ntwo', String.raw`R=\d+`, String.raw`Q=C:\\new`]) {
      assert.ok(env.includes(expected), `the container has no ${JSON.stringify(expected)}: ${JSON.stringify(env)}`);
    }
  });
});
