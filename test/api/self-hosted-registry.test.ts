// registry.enableSelfHostedRegistry runs a real registry service (the locally built image laid out
// as the official one) with the given logins; testRegistry then really logs in to it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import { pathsOf, startBerth, type TestBerth } from '../support/berth.ts';
import { engine, eventually } from '../support/engine.ts';
import { freePort } from '../support/http.ts';

const SERVICE = 'berth-registry';

/** What the registry at `port` answers a request for its catalog with this login; 0 when nothing answers there. */
const catalogStatus = (port: number, username: string, password: string): Promise<number> =>
  fetch(`http://127.0.0.1:${port}/v2/_catalog`, {
    headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
    signal: AbortSignal.timeout(2000),
  }).then((response) => response.status, () => 0);

/** A port held by a process outside Berth, as an operator's server would hold it. */
async function holdPort(): Promise<{ port: number; server: Server }> {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, resolve));
  return { port, server };
}

const letGo = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('self-hosted registry', () => {
  let berth: TestBerth;
  before(async () => {
    // A registry that cannot start is given up on soon (its port is held outside Berth).
    berth = await startBerth({ config: { registryImage: 'berth-test/registry:current', taskStartTimeoutMs: 8000 } });
  });
  /** Each test starts with no registry: the one a test enabled (or left behind) is taken away. */
  const removeRegistries = async () => {
    for (const { registryId } of await berth.ok('registry.all')) await berth.call('registry.remove', { registryId });
    await engine.removeService(SERVICE);
    await eventually('its containers to go', async () =>
      (await engine.listContainers({ label: `com.docker.swarm.service.name=${SERVICE}` })).length === 0);
  };
  afterEach(() => removeRegistries());
  after(async () => {
    await removeRegistries();
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

  it('a failed enable removes the registry service it made: nothing serves that login once the port comes free', async () => {
    const held = await holdPort();
    try {
      const answer = await berth.call('registry.enableSelfHostedRegistry', { registryUrl: `127.0.0.1:${held.port}`, username: 'reg', password: 'regpass1' });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.deepEqual(pathsOf(answer.body), ['registryUrl']);
    } finally {
      await letGo(held.server);
    }
    assert.equal(await engine.inspectService(SERVICE), null, 'no registry service is left behind');
    assert.deepEqual(await berth.ok('registry.all'), []);
    // Its claims are let go: the port is free in Berth, and the registry can be enabled there now.
    const created = await berth.ok('registry.enableSelfHostedRegistry', { registryUrl: `127.0.0.1:${held.port}`, username: 'reg', password: 'regpass1' });
    assert.equal(await catalogStatus(held.port, 'reg', 'regpass1'), 200);
    await berth.ok('registry.remove', { registryId: created.registryId });
  });

  it('leaves alone a berth-registry service Berth did not make: the enable is refused and the service kept as it was', async () => {
    execFileSync('docker', ['service', 'create', '--detach', '--name', SERVICE, '--replicas', '0', '--label', 'operator=own', 'berth-test/registry:current'], { stdio: 'ignore' });
    try {
      const before = (await engine.inspectService(SERVICE))!;
      const answer = await berth.call('registry.enableSelfHostedRegistry', { registryUrl: `127.0.0.1:${await freePort()}`, username: 'reg', password: 'regpass1' });
      assert.equal(answer.status, 409, JSON.stringify(answer.body));
      assert.deepEqual(pathsOf(answer.body), ['registryUrl']);
      const kept = await engine.inspectService(SERVICE);
      assert.equal(kept?.version, before.version, 'the operator\'s service was not written');
      assert.deepEqual(await berth.ok('registry.all'), []);
    } finally {
      await engine.removeService(SERVICE);
    }
  });

  it('an update of the login or the port applies it to the running registry', async () => {
    const first = await freePort();
    const { registryId } = await berth.ok('registry.enableSelfHostedRegistry', { registryUrl: `127.0.0.1:${first}`, username: 'reg', password: 'regpass1' });
    assert.equal(await catalogStatus(first, 'reg', 'regpass1'), 200);

    assert.equal((await berth.ok('registry.update', { registryId, password: 'newpass12' })).password, 'newpass12');
    assert.equal(await catalogStatus(first, 'reg', 'newpass12'), 200, 'the new password is accepted');
    assert.equal(await catalogStatus(first, 'reg', 'regpass1'), 401, 'the old password is not');

    await berth.ok('registry.update', { registryId, username: 'pusher' });
    assert.equal(await catalogStatus(first, 'pusher', 'newpass12'), 200, 'the new username is accepted');
    assert.equal(await catalogStatus(first, 'reg', 'newpass12'), 401, 'the old username is not');

    // A new port: the registry is published there, and the port claim moves with it.
    const second = await freePort();
    assert.equal((await berth.ok('registry.update', { registryId, registryUrl: `127.0.0.1:${second}` })).registryUrl, `127.0.0.1:${second}`);
    assert.equal(await catalogStatus(second, 'pusher', 'newpass12'), 200, 'served on the new port');
    assert.equal(await catalogStatus(first, 'pusher', 'newpass12'), 0, 'no longer on the old one');
    const { projectId } = await berth.ok('project.create', { name: 'moved registry' });
    const { applicationId } = await berth.ok('application.create', { name: 'web', projectId });
    await berth.refused('port.create', { applicationId, publishedPort: second, targetPort: 80 }, 409, 'publishedPort');
    await berth.ok('port.create', { applicationId, publishedPort: first, targetPort: 80 });

    await berth.ok('registry.remove', { registryId });
  });

  it('a removed registry record typed selfHosted that Berth does not run leaves the registry Berth runs alone', async () => {
    const port = await freePort();
    const { registryId } = await berth.ok('registry.enableSelfHostedRegistry', { registryUrl: `127.0.0.1:${port}`, username: 'reg', password: 'regpass1' });
    const other = await berth.ok('registry.create', {
      registryName: 'elsewhere', username: 'u', password: 'p', registryUrl: 'registry.example.com:5000', registryType: 'selfHosted', imagePrefix: null,
    });
    await berth.ok('registry.remove', { registryId: other.registryId });
    assert.notEqual(await engine.inspectService(SERVICE), null, 'the running registry is kept');
    assert.equal(await catalogStatus(port, 'reg', 'regpass1'), 200);
    await berth.ok('registry.remove', { registryId });
    assert.equal(await engine.inspectService(SERVICE), null, 'its own record takes it along');
  });

  it('an update the engine cannot run changes neither the record nor the running registry', async () => {
    const port = await freePort();
    const registryUrl = `127.0.0.1:${port}`;
    const { registryId } = await berth.ok('registry.enableSelfHostedRegistry', { registryUrl, username: 'reg', password: 'regpass1' });
    const held = await holdPort();
    try {
      const answer = await berth.call('registry.update', { registryId, registryUrl: `127.0.0.1:${held.port}`, password: 'newpass12' });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.deepEqual(pathsOf(answer.body), ['registryUrl']);
    } finally {
      await letGo(held.server);
    }
    const record = await berth.ok('registry.one', { registryId });
    assert.equal(record.registryUrl, registryUrl);
    assert.equal(record.password, 'regpass1');
    // The registry runs again as the record says, and the port it was refused is not kept.
    assert.equal(await eventually('the old login to be served again', async () => await catalogStatus(port, 'reg', 'regpass1') === 200), true);
    assert.equal(await catalogStatus(port, 'reg', 'newpass12'), 401);
    const { projectId } = await berth.ok('project.create', { name: 'refused move' });
    const { applicationId } = await berth.ok('application.create', { name: 'web', projectId });
    await berth.ok('port.create', { applicationId, publishedPort: held.port, targetPort: 80 });

    await berth.ok('registry.remove', { registryId });
  });
});
