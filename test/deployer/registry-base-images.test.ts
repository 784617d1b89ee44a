// An image in a registry that asks for a login is the business of those who have the login: one
// application pulling it with its own leaves the engine a copy that another application may not run,
// neither as its containerImage nor by building on it (FROM, COPY --from) with a containerfile.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TEST_IMAGE, engine, uniqueName } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import { startRegistry, type TestRegistry } from '../support/registry.ts';
import { gitRepo } from '../support/git-repo.ts';

const REGISTRY_PORT = 47510;

describe('a private registry image another application pulled', () => {
  const d = deployer();
  const repo = gitRepo();
  const apps: ReturnType<typeof testApplication>[] = [];
  let registry: TestRegistry;
  let image: string;
  before(async () => {
    registry = await startRegistry('pusher', 'private-secret-fr', REGISTRY_PORT);
    image = `${registry.url}/private/${uniqueName('berth-test-fr')}:v1`;
    repo.commit({ 'index.html': 'mine\n' });
    // Pushed with a login of its own (the engine keeps no login), then left on the engine as the owner's pull leaves it.
    const config = mkdtempSync(join(tmpdir(), 'berth-test-fr-docker-'));
    const docker = (args: string[], input = '') => execFileSync('docker', args, { env: { ...process.env, DOCKER_CONFIG: config }, input });
    try {
      await engine.tagImage(TEST_IMAGE, image);
      docker(['login', '-u', registry.username, '--password-stdin', registry.url], registry.password);
      docker(['push', '-q', image]);
    } finally {
      rmSync(config, { recursive: true, force: true });
    }
    assert.ok(await engine.imageExists(image));
  });
  after(async () => {
    for (const app of apps) await d.actions.remove(app);
    await engine.removeImage(image);
    await registry.stop();
    repo.remove();
  });

  const build = (containerfile: string, fields: Partial<ReturnType<typeof testApplication>> = {}) => {
    const app = testApplication({ appName: uniqueName('berth-test-fr'), sourceType: 'git', customGitUrl: repo.dir, customGitBranch: 'main',
      buildType: 'containerfile', containerfile, ...fields });
    apps.push(app);
    return deploy(d, app);
  };

  it('may not be built FROM by an application without the registry\'s login: the deployment fails with the registry\'s refusal', async () => {
    const built = await build(`FROM ${image}\n`);
    assert.ok(built.error, built.log.join('\n'));
    assert.match(built.error.message, new RegExp(`the image ${image} could not be pulled: .*(authentication required|unauthorized|no basic auth)`, 'i'));
    assert.ok(!built.log.some((line) => /^Step \d/.test(line)), 'nothing was built');
  });

  it('may not be copied from by an application without the registry\'s login', async () => {
    const built = await build(`FROM ${TEST_IMAGE}\nCOPY --from=${image} /www /stolen\n`);
    assert.match(built.error?.message ?? '', /authentication required|unauthorized|no basic auth/i, built.log.join('\n'));
  });

  it('may not be built FROM with a login the registry refuses', async () => {
    const built = await build(`FROM ${image}\n`, { username: registry.username, password: d.deps.secrets.seal('not the password') });
    assert.match(built.error?.message ?? '', /unauthorized|authentication required|incorrect/i, built.log.join('\n'));
  });

  it('is built on by an application with its own login; its registry\'s login (an admin\'s) is not lent to pull what it names', async () => {
    const own = await build(`FROM ${image}\nCOPY index.html /www/index.html\n`,
      { username: registry.username, password: d.deps.secrets.seal(registry.password) });
    assert.equal(own.error, null, own.log.join('\n'));
    d.registries.set('fr-reg', {
      registryId: 'fr-reg', registryName: 'private', username: registry.username, password: d.deps.secrets.seal(registry.password),
      registryUrl: registry.url, registryType: 'cloud', imagePrefix: 'fr', adminId: 'a', createdAt: new Date().toISOString(),
    });
    const viaRegistry = await build(`FROM ${image}\nCOPY index.html /www/index.html\n`, { registryId: 'fr-reg' });
    assert.match(viaRegistry.error?.message ?? '', /authentication required|unauthorized|no basic auth/i, viaRegistry.log.join('\n'));
  });
});
