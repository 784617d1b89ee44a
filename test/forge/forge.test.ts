// The forge integration through the API: an admin saves the forge app (its private key sealed),
// lists the installation's repositories and branches, and deploys an application whose source is a
// forge repository, cloned over https with an installation token the forge issued for it.
// STAND-IN: the forge's REST API is a small server of this test (test/support/forge-api.ts); the
// clone is real git smart HTTP over TLS, gated by the token.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, eventually, httpBody, removeDeployed, runningTasks } from '../support/engine.ts';
import {removeStacks } from '../support/stacks.ts';
import { ended } from '../support/deployments.ts';
import { forgeApi, type ForgeApi } from '../support/forge-api.ts';
import { GOOD_CONTAINERFILE, gitRepo } from '../support/git-repo.ts';
import { freePort } from '../support/http.ts';

describe('the forge integration', () => {
  let berth: TestBerth;
  let forge: ForgeApi;
  const repo = gitRepo();
  const services: string[] = [];
  let revision: string;
  let stackPort: number;
  const namespaces: string[] = [];
  before(async () => {
    stackPort = await freePort();
    revision = repo.commit({
      'web/Containerfile': GOOD_CONTAINERFILE, 'web/index.html': 'from the forge\n',
      'stack/compose.yml': `services:\n  web:\n    image: ${TEST_IMAGE}\n    ports:\n      - "${stackPort}:8080"\n`,
    });
    forge = await forgeApi([{ owner: 'acme', name: 'shop', dir: repo.dir, branches: ['main', 'next'] }]);
    berth = await startBerthWithReactors({ config: { taskStartTimeoutMs: 20_000 } });
  });
  after(async () => {
    await removeDeployed(services);
    await removeStacks(namespaces);
    await berth.stop();
    await forge.stop();
    repo.remove();
  });
  const settings = () => ({ apiUrl: forge.apiUrl, appId: forge.appId, installationId: forge.installationId, privateKey: forge.privateKey });

  it('answers 409 naming the missing configuration until an admin saves the forge app', async () => {
    assert.equal(await berth.ok('admin.haveForgeConfigured'), false);
    const answer = await berth.call('admin.getRepositories');
    assert.equal(answer.status, 409);
    assert.match(answer.body.message, /forge is not configured/);
    await berth.refused('admin.saveForgeApp', { ...settings(), privateKey: 'not a key' }, 400, 'privateKey');
    await berth.refused('admin.saveForgeApp', { ...settings(), apiUrl: 'ftp://forge' }, 400, 'apiUrl');
  });

  it('saves the forge app with its key sealed, lists repositories and branches, and forgets it on cleanForgeApp', async () => {
    const saved = await berth.ok('admin.saveForgeApp', settings());
    assert.deepEqual(Object.keys(saved).sort(), ['apiUrl', 'appId', 'installationId', 'savedAt']);
    const head = await berth.head();
    await berth.ok('admin.saveForgeApp', settings());
    assert.equal(await berth.head(), head, 'saving the same app again appended an event');
    assert.equal(await berth.ok('admin.haveForgeConfigured'), true);
    assert.ok(!(await berth.eventLog()).includes(forge.privateKey.split('\n')[1]!), 'the private key is in the log in clear');
    assert.deepEqual(await berth.ok('admin.getRepositories'), [{ name: 'shop', owner: 'acme', url: `${forge.git.baseUrl}/acme/shop.git` }]);
    assert.deepEqual(await berth.ok('admin.getBranches', { owner: 'acme', repo: 'shop' }), [{ name: 'main' }, { name: 'next' }]);
    await berth.refused('admin.getBranches', { owner: 'acme', repo: 'nope' }, 404, 'repo');
    // A dot segment would resolve to another endpoint of the forge, asked with the installation token.
    const asked = forge.asked.length;
    for (const [owner, repo] of [['..', 'installation'], ['acme', '..'], ['.', 'shop']]) {
      await berth.refused('admin.getBranches', { owner, repo }, 404, 'repo');
    }
    assert.ok(forge.asked.slice(asked).every((path) => path.startsWith('/repos/') || path.startsWith('/app/installations/')), forge.asked.slice(asked).join(', '));
    assert.equal(await berth.ok('admin.cleanForgeApp'), true);
    assert.equal(await berth.ok('admin.haveForgeConfigured'), false);
    const again = await berth.head();
    assert.equal(await berth.ok('admin.cleanForgeApp'), true);
    assert.equal(await berth.head(), again);
  });

  it('answers 409 with the forge\'s reason when the forge refuses the app\'s key', async () => {
    const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await berth.ok('admin.saveForgeApp', { ...settings(), privateKey });
    const answer = await berth.call('admin.getRepositories');
    assert.equal(answer.status, 409);
    assert.match(answer.body.message, /forge answered 401/);
    await berth.ok('admin.cleanForgeApp');
  });

  it('deploys a forge repository cloned with an installation token; no token or key reaches the log', async () => {
    await berth.ok('admin.saveForgeApp', settings());
    const { projectId } = await berth.ok('project.create', { name: 'forge' });
    const app = await berth.ok('application.create', { name: 'shop', projectId });
    services.push(app.appName);
    const port = await freePort();
    await berth.ok('port.create', { applicationId: app.applicationId, publishedPort: port, targetPort: 8080 });
    await berth.ok('application.saveForgeProvider', { applicationId: app.applicationId, owner: 'acme', repository: 'shop', branch: 'main', buildPath: 'web' });
    const clonesBefore = forge.git.clones.get('acme/shop') ?? 0;
    const { deploymentId } = await berth.ok('application.deploy', { applicationId: app.applicationId });
    const done = await ended(berth, deploymentId);
    const { log } = await berth.ok('deployment.logs', { deploymentId });
    assert.equal(done.status, 'done', log);
    await eventually('the forge repository served', async () => (await httpBody(port)) === 'from the forge\n');
    assert.equal(forge.git.clones.get('acme/shop'), clonesBefore + 1);
    assert.equal(done.revision, revision);
    for (const token of forge.issued) assert.ok(!log.includes(token), 'an installation token is in the log');
    assert.ok(!log.includes('PRIVATE KEY'));
    // The server runs in this process: git must run beside it, not block it.
    await assert.rejects(promisify(execFile)('git', ['ls-remote', `${forge.git.baseUrl.replace('https://', 'https://x-access-token:ghs_guessed@')}/acme/shop.git`],
      { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }), /401|Authentication failed/, 'the repository served a clone without an issued token');
    assert.match(log, /Cloning https:\/\/localhost:\d+\/acme\/shop\.git at main/);
  });

  it('deploys a compose service whose file is in a forge repository, cloned with an installation token', async () => {
    await berth.ok('admin.saveForgeApp', settings());
    const { projectId } = await berth.ok('project.create', { name: 'forge stacks' });
    const { composeId, appName } = await berth.ok('compose.create', { name: 'forge-stack', projectId });
    namespaces.push(appName);
    await berth.ok('compose.update', {
      composeId, composeType: 'stack', sourceType: 'forge', owner: 'acme', repository: 'shop', branch: 'main', composePath: 'stack/compose.yml',
    });
    const { deploymentId } = await berth.ok('compose.deploy', { composeId });
    const done = await ended(berth, deploymentId);
    const { log } = await berth.ok('deployment.logs', { deploymentId });
    assert.equal(done.status, 'done', log);
    assert.equal(done.revision, revision);
    await eventually('the stack\'s service running', async () => (await runningTasks(`${appName}_web`)).length === 1);
    for (const token of forge.issued) assert.ok(!log.includes(token), 'an installation token is in the log');
  });
});
