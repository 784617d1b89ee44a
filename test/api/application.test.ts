import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { generateSshKeyPair } from '@berth/shared/crypto/ssh-key';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('application operations', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    projectId = (await berth.ok('project.create', { name: 'apps' })).projectId;
  });
  after(() => berth.stop());

  const create = (name = 'shop', extra: Record<string, unknown> = {}) =>
    berth.ok('application.create', { name, projectId, ...extra });

  it('creates an idle application and reads it back with its children', async () => {
    const created = await create('shop', { description: 'the shop' });
    assert.equal(created.applicationId.length, 21);
    assert.equal(created.applicationStatus, 'idle');
    assert.equal(created.replicas, 1);
    assert.equal(created.buildType, 'containerfile');
    assert.equal(created.sourceType, 'forge');
    assert.equal(created.projectId, projectId);
    assert.equal(typeof created.refreshToken, 'string');
    assert.equal(created.env, null);
    assert.equal('sshPrivateKey' in created, false);
    const one = await berth.ok('application.one', { applicationId: created.applicationId });
    assert.equal(one.description, 'the shop');
    assert.deepEqual([one.ports, one.redirects, one.security, one.deployments], [[], [], [], []]);
    const project = await berth.ok('project.one', { projectId });
    assert.ok(project.applications.some((a: { applicationId: string }) => a.applicationId === created.applicationId));
  });

  it('refuses the deploy of an application whose source is not set, naming the field and how a source is chosen', async () => {
    const { applicationId } = await create('unset');
    const answer = await berth.call('application.deploy', { applicationId });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.issues[0].path, 'repository');
    assert.match(answer.body.message, /repository must be set on the forge source before deploying \(saveContainerProvider, saveGitProdiver or saveForgeProvider sets the source/);
  });

  it('refuses an application in a project that does not exist, naming projectId', async () => {
    await berth.refused('application.create', { name: 'x', projectId: 'nope' }, 404, 'projectId');
  });

  it('names the runtime after the given appName, or the name, with a random suffix', async () => {
    const a = await create('Web Shop', { appName: 'shop' });
    const b = await create('Web Shop', { appName: 'shop' });
    const c = await create('Web Shop');
    assert.match(a.appName, /^shop-[0-9a-f]{6}$/);
    assert.match(b.appName, /^shop-[0-9a-f]{6}$/);
    assert.notEqual(a.appName, b.appName);
    assert.match(c.appName, /^web-shop-[0-9a-f]{6}$/);
  });

  it('keeps appName unique: taking another application\'s name is a CONFLICT', async () => {
    const a = await create('a');
    const b = await create('b');
    await berth.refused('application.update', { applicationId: b.applicationId, appName: a.appName }, 409, 'appName');
    assert.equal((await berth.ok('application.one', { applicationId: b.applicationId })).appName, b.appName);
  });

  it('renames to a free valid name and frees the old one; refuses an invalid runtime name', async () => {
    const a = await create('a');
    const renamed = await berth.ok('application.update', { applicationId: a.applicationId, appName: `renamed-${a.appName}` });
    assert.equal(renamed.appName, `renamed-${a.appName}`);
    const b = await create('b');
    assert.equal((await berth.ok('application.update', { applicationId: b.applicationId, appName: a.appName })).appName, a.appName);
    await berth.refused('application.update', { applicationId: b.applicationId, appName: 'Not A Name!' }, 400, 'appName');
    // The engine names a stack's services `<stack>_<service>`: such a name could be another project's service.
    const stackLike = await berth.refused('application.update', { applicationId: b.applicationId, appName: 'shop_web' }, 400, 'appName');
    assert.match(stackLike.message, /"-" or "\."/);
    // A requested name is made a runtime name without one.
    const { projectId } = await berth.ok('project.create', { name: 'underscores' });
    assert.doesNotMatch((await berth.ok('application.create', { name: 'x', appName: 'shop_web', projectId })).appName, /_/);
  });

  it('updates any field, takes createdAt only as read, and checks the project and registry it moves to', async () => {
    const a = await create();
    const updated = await berth.ok('application.update', {
      applicationId: a.applicationId, replicas: 3, memoryLimit: 512 * 2 ** 20, enabled: false, command: 'npm start',
      labelsOrch: { tier: 'web' }, healthCheckOrch: { Test: ['CMD', 'true'], Retries: 3 }, createdAt: a.createdAt,
    });
    assert.equal(updated.replicas, 3);
    assert.equal(updated.memoryLimit, 512 * 2 ** 20);
    assert.equal(updated.enabled, false);
    assert.deepEqual(updated.labelsOrch, { tier: 'web' });
    assert.deepEqual(updated.healthCheckOrch, { Test: ['CMD', 'true'], Retries: 3 });
    assert.equal(updated.createdAt, a.createdAt);
    await berth.refused('application.update', { applicationId: a.applicationId, createdAt: '1999-01-01T00:00:00.000Z' }, 400, 'createdAt');
    await berth.refused('application.update', { applicationId: a.applicationId, projectId: 'nope' }, 404, 'projectId');
    await berth.refused('application.update', { applicationId: a.applicationId, registryId: 'nope' }, 404, 'registryId');
    const other = await berth.ok('project.create', { name: 'other' });
    assert.equal((await berth.ok('application.update', { applicationId: a.applicationId, projectId: other.projectId })).projectId, other.projectId);
    await berth.refused('application.update', { applicationId: 'nope', replicas: 2 }, 404, 'applicationId');
  });

  it('saves environment, build type and each source provider', async () => {
    const { applicationId } = await create();
    assert.equal((await berth.ok('application.saveEnvironment', { applicationId, env: 'A=1\n# note' })).env, 'A=1\n# note');
    const build = await berth.ok('application.saveBuildType', { applicationId, buildType: 'gamma_packs', containerfile: 'FROM node' });
    assert.deepEqual([build.buildType, build.containerfile], ['gamma_packs', 'FROM node']);
    const forge = await berth.ok('application.saveForgeProvider', { applicationId, repository: 'shop', branch: 'main', owner: 'me', buildPath: '/' });
    assert.deepEqual([forge.sourceType, forge.repository, forge.branch, forge.owner, forge.buildPath], ['forge', 'shop', 'main', 'me', '/']);
    const image = await berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'nginx:1', username: 'u', password: 'registry-secret-1' });
    assert.deepEqual([image.sourceType, image.containerImage, image.username, image.password], ['container', 'nginx:1', 'u', 'registry-secret-1']);
    const git = await berth.ok('application.saveGitProdiver', { applicationId, customGitUrl: 'git@forge.test:me/shop.git', customGitBranch: 'main', customGitBuildPath: '/' });
    assert.deepEqual([git.sourceType, git.customGitUrl, git.customGitBranch], ['git', 'git@forge.test:me/shop.git', 'main']);
    await berth.refused('application.saveEnvironment', { applicationId: 'nope', env: 'A=1' }, 404, 'applicationId');
  });

  it('never holds a registry password in clear in the log, and records nothing when it is sent back unchanged', async () => {
    const { applicationId } = await create();
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'x', password: 'container-pass-42' });
    await berth.ok('application.update', { applicationId, password: 'update-pass-43' });
    const text = await berth.eventLog();
    assert.ok(!text.includes('container-pass-42'));
    assert.ok(!text.includes('update-pass-43'));
    const head = await berth.head();
    assert.equal((await berth.ok('application.update', { applicationId, password: 'update-pass-43' })).password, 'update-pass-43');
    assert.equal(await berth.head(), head);
  });

  it('generates an SSH key: the public key is shown, the private key never is, nor in clear in the log', async () => {
    const { applicationId } = await create();
    const generated = await berth.call('application.generateSSHKey', { applicationId });
    assert.equal(generated.status, 200);
    assert.match(generated.body.customGitSSHKey, /^ssh-ed25519 /);
    const answers = JSON.stringify([
      generated.body, await berth.ok('application.one', { applicationId }), await berth.ok('project.one', { projectId }),
    ]);
    assert.ok(!answers.includes('PRIVATE KEY'));
    assert.ok(!answers.includes('sshPrivateKey'));
    assert.ok(!(await berth.eventLog()).includes('PRIVATE KEY'));
    assert.equal((await berth.ok('application.removeSSHKey', { applicationId })).customGitSSHKey, null);
    await berth.refused('application.generateSSHKey', { applicationId: 'nope' }, 404, 'applicationId');
  });

  it('takes a PEM private key on update and shows its public key; refuses what is not one, naming customGitSSHKey', async () => {
    const { applicationId } = await create();
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const updated = await berth.ok('application.update', { applicationId, customGitSSHKey: pem });
    assert.match(updated.customGitSSHKey, /^ssh-ed25519 AAAA/);
    assert.ok(!(await berth.eventLog()).includes(pem.split('\n')[1]!));
    const head = await berth.head();
    await berth.ok('application.update', { applicationId, customGitSSHKey: updated.customGitSSHKey });
    assert.equal(await berth.head(), head);
    await berth.refused('application.update', { applicationId, customGitSSHKey: 'not a key' }, 400, 'customGitSSHKey');
    await berth.refused('application.update', { applicationId, customGitSSHKey: generateSshKeyPair().privateKey }, 400, 'customGitSSHKey');
    assert.equal((await berth.ok('application.update', { applicationId, customGitSSHKey: null })).customGitSSHKey, null);
  });

  it('refreshes the token, marks running, and stores a valid proxy configuration', async () => {
    const created = await create();
    const { applicationId } = created;
    const refreshed = await berth.ok('application.refreshToken', { applicationId });
    assert.notEqual(refreshed.refreshToken, created.refreshToken);
    assert.equal((await berth.ok('application.markRunning', { applicationId })).applicationStatus, 'running');
    const proxyConfig = 'http:\n  routers:\n    shop:\n      rule: Host(`shop.test`)\n      service: shop\n';
    assert.equal((await berth.ok('application.updateProxyConfig', { applicationId, proxyConfig })).proxyConfig, proxyConfig);
    await berth.refused('application.updateProxyConfig', { applicationId, proxyConfig: 'http: [unclosed' }, 400, 'proxyConfig');
    await berth.refused('application.updateProxyConfig', { applicationId: 'nope', proxyConfig }, 404, 'applicationId');
  });

  it('answers the runtime operations NOT_FOUND for an unknown id, appending nothing', async () => {
    const { applicationId, appName } = await create();
    for (const operation of ['reload', 'stop', 'start', 'redeploy', 'deploy', 'cleanQueues']) {
      await berth.refused(`application.${operation}`, { applicationId: 'nope', ...(operation === 'reload' && { appName }) }, 404, 'applicationId');
    }
    await berth.refused('application.readProxyConfig', { applicationId: 'nope' }, 404, 'applicationId');
    // reload names the application twice: an appName of another (or of none) is refused, not ignored.
    const other = await create();
    await berth.refused('application.reload', { applicationId, appName: other.appName }, 400, 'appName');
    await berth.refused('application.reload', { applicationId, appName: '' }, 400, 'appName');
    assert.equal(await berth.ok('application.readProxyConfig', { applicationId }), null, 'no file before a deploy writes one');
  });

  it('deletes an application with its project, freeing its appName', async () => {
    const project = await berth.ok('project.create', { name: 'doomed' });
    const doomed = await berth.ok('application.create', { name: 'x', projectId: project.projectId });
    await berth.ok('project.remove', { projectId: project.projectId });
    assert.equal((await berth.call('application.one', { applicationId: doomed.applicationId })).status, 404);
    const heir = await create();
    assert.equal((await berth.ok('application.update', { applicationId: heir.applicationId, appName: doomed.appName })).appName, doomed.appName);
  });
});
