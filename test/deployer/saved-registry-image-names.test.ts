// A registry saved before its URL path and image prefix were checked may name no image: its
// application's deployment fails naming the registry and the field, before anything is built.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEST_IMAGE, engine, uniqueName } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';

test('a deployment to a saved registry whose imagePrefix or path names no image fails naming the registry and the field', async () => {
  const d = deployer();
  for (const [field, registryUrl, imagePrefix] of [['imagePrefix', '127.0.0.1:47513', 'Team Space'], ['registryUrl', '127.0.0.1:47513/../x', null]] as const) {
    d.registries.set('fr-old', {
      registryId: 'fr-old', registryName: 'old-one', username: 'u', password: d.deps.secrets.seal('p'), registryUrl, registryType: 'cloud',
      imagePrefix, adminId: 'a', createdAt: new Date().toISOString(),
    });
    const app = testApplication({ appName: uniqueName('berth-test-fr'), sourceType: 'container', containerImage: TEST_IMAGE, registryId: 'fr-old' });
    const { error, log } = await deploy(d, app);
    assert.match(error?.message ?? '', new RegExp(`the registry old-one's ${field} `), log.join('\n'));
    assert.ok(!log.some((line) => line.startsWith('Pulling')), 'nothing was pulled or built');
    assert.deepEqual(await engine.imageTags(`berth/${app.appName}`), []);
  }
});
