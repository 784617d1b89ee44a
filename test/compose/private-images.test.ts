// A compose file's image in a private registry (a real docker-registry with htpasswd logins) that
// Berth knows (registry.create): a stack's services and a compose project both pull it with that
// registry's login, which the engine has nowhere else.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, engine, eventually } from '../support/engine.ts';
import { freePort } from '../support/http.ts';
import { startRegistry, type TestRegistry } from '../support/registry.ts';
import { ended } from '../support/deployments.ts';
import { removeStacks, served } from '../support/stacks.ts';

describe('compose files with images in a private registry Berth knows', () => {
  let berth: TestBerth;
  let registry: TestRegistry;
  let projectId: string;
  let image: string;
  const namespaces: string[] = [];
  before(async () => {
    registry = await startRegistry();
    image = `${registry.url}/berth-test/private:1`;
    await engine.tagImage(TEST_IMAGE, image);
    await engine.pushImage(image, { username: registry.username, password: registry.password, serveraddress: registry.url });
    // Only the registry has it now: a deploy must pull it, with the login.
    await engine.removeImage(image);
    berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000, taskStartTimeoutMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'private images' }));
    await berth.ok('registry.create', {
      registryName: 'private', username: registry.username, password: registry.password, registryUrl: registry.url, registryType: 'cloud', imagePrefix: null,
    });
  });
  after(async () => {
    try {
      await removeStacks(namespaces);
    } finally {
      await berth.stop();
      await registry.stop();
      await engine.removeImage(image).catch(() => {});
    }
  });

  for (const composeType of ['stack', 'container-compose'] as const) {
    it(`deploys a ${composeType} whose image only the private registry holds`, async () => {
      const port = await freePort();
      const { composeId, appName } = await berth.ok('compose.create', { name: composeType, projectId, composeType });
      namespaces.push(appName);
      await berth.ok('compose.update', {
        composeId, composeFile: `services:\n  web:\n    image: ${image}\n    ports: ["${port}:8080"]\n`,
      });
      const deployment = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
      assert.equal(deployment.status, 'done', deployment.reason);
      assert.equal(await eventually('the service to answer', () => served(port, '/'), 60_000), 'berth-test httpd\n');
      const { log } = await berth.ok('deployment.logs', { deploymentId: deployment.deploymentId });
      assert.ok(!log.includes(registry.password), 'the registry password is not in the log');
      await berth.ok('compose.delete', { composeId });
    });
  }
});
