// registry.enableSelfHostedRegistry runs a real registry service (the locally built image laid out
// as the official one) with the given logins; testRegistry then really logs in to it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { engine, eventually } from '../support/engine.ts';
import { freePort } from '../support/http.ts';

const SERVICE = 'berth-registry';

describe('self-hosted registry', () => {
  let berth: TestBerth;
  before(async () => {
    berth = await startBerth({ config: { registryImage: 'berth-test/registry:current' } });
  });
  after(async () => {
    await engine.removeService(SERVICE);
    await eventually('its containers to go', async () =>
      (await engine.listContainers({ label: `com.docker.swarm.service.name=${SERVICE}` })).length === 0);
    execFileSync('docker', ['volume', 'rm', '--force', `${SERVICE}-data`], { stdio: 'ignore' });
    await berth.stop();
  });

  it('refuses a username its htpasswd file cannot hold (a colon, a line break), before the engine is asked', async () => {
    for (const username of ['own:er', 'owner\nintruder:$2y$10$x']) {
      await berth.refused('registry.enableSelfHostedRegistry', { registryUrl: '127.0.0.1:5999', username, password: 'a password' }, 400, 'username');
    }
    assert.equal(await engine.inspectService(SERVICE), null);
  });

  it('deploys a registry with the credentials, records it, and a login with them succeeds', async () => {
    const registryUrl = `127.0.0.1:${await freePort()}`;
    const credentials = { username: 'owner', password: 'self-hosted-secret' };
    const created = await berth.ok('registry.enableSelfHostedRegistry', { registryUrl, ...credentials });
    assert.equal(created.registryType, 'selfHosted');
    assert.equal(created.registryUrl, registryUrl);
    assert.equal((await berth.ok('registry.one', { registryId: created.registryId })).username, 'owner');
    const spec = (await engine.inspectService(SERVICE))!.spec;
    assert.ok(!JSON.stringify(spec).includes(credentials.password), 'only a hash of the password reaches the engine');

    const login = { registryName: 'r', registryUrl, registryType: 'selfHosted', imagePrefix: null, ...credentials };
    assert.equal(await eventually('a login to succeed', async () => (await berth.call('registry.testRegistry', login)).status === 200), true);
    const refused = await berth.refused('registry.testRegistry', { ...login, password: 'wrong' }, 400, 'password');
    assert.match(refused.issues[0].message, /^password was refused by the registry: /);

    // One registry service: a second enable would replace this one's logins and port under its record.
    await berth.refused('registry.enableSelfHostedRegistry', { registryUrl: `127.0.0.1:${await freePort()}`, ...credentials }, 409, 'registryUrl');
    // Its host port is taken in the one namespace of host ports.
    const { projectId } = await berth.ok('project.create', { name: 'registry port' });
    const { applicationId } = await berth.ok('application.create', { name: 'web', projectId });
    const port = Number(registryUrl.split(':')[1]);
    await berth.refused('port.create', { applicationId, publishedPort: port, targetPort: 80 }, 409, 'publishedPort');

    // Removed, it takes its service and its claims along: it can be enabled again.
    await berth.ok('registry.remove', { registryId: created.registryId });
    assert.equal(await engine.inspectService(SERVICE), null);
    assert.equal((await berth.ok('port.create', { applicationId, publishedPort: port, targetPort: 80 })).publishedPort, port);
  });

  it('refuses a registry URL that names no port: pushes go to the port the URL names', async () => {
    await berth.refused('registry.enableSelfHostedRegistry', { registryUrl: 'registry.example.com', username: 'owner', password: 'a password' }, 400, 'registryUrl');
    assert.equal(await engine.inspectService(SERVICE), null);
  });
});
