// With a registryId, the built image goes to that registry (a real docker-registry with htpasswd
// logins) before the service is updated, and the service pulls it with the registry's credentials.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TEST_IMAGE, engine } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import { startRegistry, type TestRegistry } from '../support/registry.ts';

const d = deployer();
let registry: TestRegistry;
const app = testApplication({ sourceType: 'container', containerImage: TEST_IMAGE, registryId: 'reg-1' });
before(async () => {
  registry = await startRegistry();
  d.registries.set('reg-1', {
    registryId: 'reg-1', registryName: 'local', username: registry.username, password: d.deps.secrets.seal(registry.password),
    registryUrl: registry.url, registryType: 'selfHosted', imagePrefix: 'team', adminId: 'a', createdAt: new Date().toISOString(),
  });
});
after(async () => {
  await d.actions.remove(app);
  await registry.stop();
});

test('the image is pushed to the application\'s registry and the service runs it from there; no password in the log', async () => {
  const { result, error, log } = await deploy(d, app);
  assert.equal(error, null, log.join('\n'));
  assert.match(result!.image, new RegExp(`^${registry.url}/team/${app.appName}:deploy-`));
  const tag = result!.image.split(':').at(-1);
  const listing = await fetch(`http://${registry.url}/v2/team/${app.appName}/tags/list`, {
    headers: { authorization: `Basic ${Buffer.from(`${registry.username}:${registry.password}`).toString('base64')}` },
  });
  assert.deepEqual(((await listing.json()) as { tags: string[] }).tags, [tag]);
  const image = (await engine.inspectService(app.appName))!.spec.TaskTemplate.ContainerSpec.Image;
  assert.ok(image.startsWith(result!.image), `the service runs ${image}`);
  assert.ok(!log.join('\n').includes(registry.password), 'the registry password is not in the log');
});

test('a registry that refuses the login fails the deployment with its reason, before the service changes', async () => {
  const refused = testApplication({ sourceType: 'container', containerImage: TEST_IMAGE, registryId: 'reg-bad' });
  d.registries.set('reg-bad', { ...d.registries.get('reg-1')!, registryId: 'reg-bad', password: d.deps.secrets.seal('not the password') });
  const { error, log } = await deploy(d, refused);
  assert.match(error!.message, /unauthorized|authentication required|no basic auth/i);
  assert.ok(!log.join('\n').includes('not the password'));
  assert.equal(await engine.inspectService(refused.appName), null);
  await d.actions.remove(refused);
  assert.deepEqual(await engine.imageTags(`${registry.url}/team/${refused.appName}`), [], 'its images are gone too');
});
