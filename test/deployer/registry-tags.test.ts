// The tags Berth puts on the engine in an application's registry repository: a failed deployment
// takes its own along at once (its record keeps no image for pruning to find), and the application's
// removal finds them after its registry's URL or imagePrefix changed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Registry } from '@berth/shared/domain/registry/registry';
import { TEST_IMAGE, engine, uniqueName } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import { startRegistry, type TestRegistry } from '../support/registry.ts';

const REGISTRY_PORT = 47511;

describe('registry tags on the engine', () => {
  const d = deployer();
  const apps: ReturnType<typeof testApplication>[] = [];
  let registry: TestRegistry;
  const registryRecord = (registryId: string, fields: Partial<Registry> = {}): Registry => {
    const record: Registry = {
      registryId, registryName: registryId, username: registry.username, password: d.deps.secrets.seal(registry.password),
      registryUrl: registry.url, registryType: 'cloud', imagePrefix: 'one', adminId: 'a', createdAt: new Date().toISOString(), ...fields,
    };
    d.registries.set(registryId, record);
    return record;
  };
  const containerApp = (registryId: string) => {
    const app = testApplication({ appName: uniqueName('berth-test-fr'), sourceType: 'container', containerImage: TEST_IMAGE, registryId });
    apps.push(app);
    return app;
  };
  before(async () => {
    registry = await startRegistry('pusher', 'tags-secret-fr', REGISTRY_PORT);
  });
  after(async () => {
    for (const app of apps) await d.actions.remove(app);
    await registry.stop();
  });

  it('a deployment whose push is refused leaves no registry tag on the engine', async () => {
    registryRecord('fr-refused', { password: d.deps.secrets.seal('not the password') });
    const app = containerApp('fr-refused');
    const { error, log } = await deploy(d, app);
    assert.match(error?.message ?? '', /unauthorized|authentication required|no basic auth/i, log.join('\n'));
    assert.deepEqual(await engine.imageTags(`${registry.url}/one/${app.appName}`), []);
  });

  it('a deployment that fails after its push leaves no registry tag on the engine', async () => {
    registryRecord('fr-pushed');
    // Its task exits at once: the rollout fails after the push.
    const app = { ...containerApp('fr-pushed'), command: 'exit 3' };
    const { error, log } = await deploy(d, app);
    assert.ok(error, log.join('\n'));
    assert.ok(log.some((line) => line.startsWith('Pushing ')), log.join('\n'));
    assert.deepEqual(await engine.imageTags(`${registry.url}/one/${app.appName}`), []);
  });

  it('application removal takes the tags pushed under the registry\'s earlier imagePrefix and URL', async () => {
    const record = registryRecord('fr-moved');
    const app = containerApp('fr-moved');
    const first = await deploy(d, app);
    assert.equal(first.error, null, first.log.join('\n'));
    record.imagePrefix = 'two';
    const second = await deploy(d, app);
    assert.equal(second.error, null, second.log.join('\n'));
    record.registryUrl = `http://${registry.url}/moved`;
    const repositories = [`${registry.url}/one/${app.appName}`, `${registry.url}/two/${app.appName}`];
    for (const repository of repositories) assert.equal((await engine.imageTags(repository)).length, 1, repository);
    await d.actions.remove(app);
    for (const repository of repositories) assert.deepEqual(await engine.imageTags(repository), [], repository);
    assert.deepEqual(await engine.imageTags(`berth/${app.appName}`), []);
  });
});
