// Issue 8 test 3: a two-service compose file deployed as a stack on the real engine. Both services
// run and talk over the stack's network (the probe fetches the web service by its short name and
// serves what it got on a host port), allServices lists them, stop leaves no running task, and
// delete removes the stack's services and networks. The same through a git source and a push.
import assert from 'node:assert/strict';
import { dockerClient } from '@berth/shared/adapters/docker/engine';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, eventually, httpBody, runningTasks } from '../support/engine.ts';
import { gitRepo, type GitRepo } from '../support/git-repo.ts';
import { freePort } from '../support/http.ts';
import {TWO_SERVICES, removeStacks, served, stacks } from '../support/stacks.ts';
import { deploymentRecordsOf, ended } from '../support/deployments.ts';
import { databaseCredentials } from '../support/databases.ts';

describe('compose stacks on the real engine', () => {
  let berth: TestBerth;
  let projectId: string;
  const namespaces: string[] = [];
  const repos: GitRepo[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: { actionWaitMs: 30_000, taskStartTimeoutMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'stacks' }));
  });
  after(async () => {
    try {
      await removeStacks(namespaces);
    } finally {
      for (const repo of repos) repo.remove();
      await berth.stop();
    }
  });

  async function stack(fields: Record<string, unknown>) {
    const created = await berth.ok('compose.create', { name: 'pair', projectId, composeType: 'stack' });
    namespaces.push(created.appName);
    return berth.ok('compose.update', { composeId: created.composeId, ...fields }) as Promise<{ composeId: string; appName: string; refreshToken: string }>;
  }

  // The service's status follows its deployment's end a moment after it (reported by the deployer).
  const statusBecomes = (composeId: string, status: string) =>
    eventually(`the compose service to be ${status}`, async () => (await berth.ok('compose.one', { composeId })).composeStatus === status);

  it('deploys both services, which talk over their network; stop leaves no task running; delete removes the stack', async () => {
    const port = await freePort();
    const { composeId, appName } = await stack({ composeFile: TWO_SERVICES, env: `PORT=${port}` });
    assert.deepEqual(await berth.ok('compose.allServices', { composeId }), ['web', 'probe']);

    const queued = await berth.ok('compose.deploy', { composeId });
    assert.equal(queued.status, 'queued');
    assert.equal(queued.composeId, composeId);
    const deployment = await ended(berth, queued.deploymentId);
    assert.equal(deployment.status, 'done', deployment.reason);
    await statusBecomes(composeId, 'done');
    assert.deepEqual((await stacks.services(appName)).sort(), [`${appName}_probe`, `${appName}_web`]);
    assert.deepEqual(await stacks.networks(appName), [`${appName}_back`]);
    // The probe reached `web` by its name over the stack's network, and serves what it got.
    assert.equal(await eventually('the probe to fetch web', () => served(port, '/fetched.html'), 60_000), 'berth-test httpd\n');

    const listed = await berth.ok('deployment.all', { composeId });
    assert.deepEqual(listed.map((d: { deploymentId: string }) => d.deploymentId), [queued.deploymentId]);
    const { log } = await berth.ok('deployment.logs', { deploymentId: queued.deploymentId });
    assert.match(log, new RegExp(`Creating the service ${appName}_web`));

    // A redeploy brings the same file up again: each service is updated (its tasks rolled), not created.
    const redeployed = await ended(berth, (await berth.ok('compose.redeploy', { composeId })).deploymentId);
    assert.equal(redeployed.status, 'done', redeployed.reason);
    assert.match((await berth.ok('deployment.logs', { deploymentId: redeployed.deploymentId })).log, new RegExp(`Updating the service ${appName}_probe`));

    assert.equal((await berth.ok('compose.stop', { composeId })).composeStatus, 'idle');
    assert.deepEqual([...await runningTasks(`${appName}_web`), ...await runningTasks(`${appName}_probe`)], []);

    await berth.ok('compose.delete', { composeId });
    await eventually('the stack to be removed', async () =>
      (await stacks.services(appName)).length === 0 && (await stacks.networks(appName)).length === 0
      && (await deploymentRecordsOf(berth, 'composeId', composeId)).length === 0, 60_000);
    await berth.refused('compose.one', { composeId }, 404);
  });

  it('deploys the file at composePath of a git repository on a push to its branch; a broken file fails with the reason', async () => {
    const repo = gitRepo();
    repos.push(repo);
    const port = await freePort();
    repo.commit({ 'stack.yml': TWO_SERVICES.replace('${PORT}', String(port)) });
    const { composeId, refreshToken } = await stack({
      sourceType: 'git', customGitUrl: repo.dir, customGitBranch: 'main', composePath: 'stack.yml', autoDeploy: true,
    });
    const push = (ref: string) => berth.app.inject({ method: 'POST', url: `/api/deploy/compose/${refreshToken}`, payload: { ref, after: 'abcdef0123456789' } });
    assert.equal((await push('refs/heads/other')).statusCode, 400);
    const pushed = await push('refs/heads/main');
    assert.equal(pushed.statusCode, 200, pushed.body);
    assert.equal(pushed.json().trigger, 'webhook');
    const deployment = await ended(berth, pushed.json().deploymentId);
    assert.equal(deployment.status, 'done', deployment.reason);
    assert.match(deployment.revision, /^[0-9a-f]{40}$/);
    assert.equal(await eventually('the probe to fetch web', () => served(port, '/fetched.html'), 60_000), 'berth-test httpd\n');

    repo.commit({ 'stack.yml': 'services: [web\n' }, 'break it');
    const broken = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(broken.status, 'error');
    assert.match(broken.reason, /stack\.yml is not valid YAML/);
    assert.deepEqual(broken.seen.slice(-1), ['error']);
    await statusBecomes(composeId, 'error');
    repo.commit({ 'stack.yml': 'services: {}\n' }, 'empty it');
    const empty = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.match(empty.reason, /stack\.yml has no services/);
  });

  it('refuses a compose file that links out of its repository, and quotes nothing of what it points to', async () => {
    const repo = gitRepo();
    repos.push(repo);
    const secret = join(mkdtempSync(join(tmpdir(), 'berth-outside-')), 'instance.key');
    writeFileSync(secret, 'not: [yaml, of the host\n');
    repo.commit({ 'README': 'a stack\n' });
    symlinkSync(secret, join(repo.dir, 'stack.yml'));
    repo.commit({}, 'link out');
    const { composeId } = await stack({ sourceType: 'git', customGitUrl: repo.dir, customGitBranch: 'main', composePath: 'stack.yml' });
    const refused = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(refused.status, 'error');
    assert.match(refused.reason, /the compose file "stack\.yml" leads out of the repository through a symbolic link/);
    const { log } = await berth.ok('deployment.logs', { deploymentId: refused.deploymentId });
    assert.ok(!log.includes('of the host'), log);
    rmSync(dirname(secret), { recursive: true, force: true });
  });

  it('gives a stack from a repository its env file, secrets and configs (from files beside it, its env or its text), moves a changed secret to a new one and removes the old', async () => {
    const repo = gitRepo();
    repos.push(repo);
    const port = await freePort();
    // The service serves what it was given: a variable of its env file, its secret, and its configs.
    const file = `services:
  show:
    image: ${TEST_IMAGE}
    restart: always
    env_file: app.env
    secrets: [token]
    configs: [{ source: page, target: /page.txt }, { source: index, target: /www/index.html }]
    volumes: ["scratch:/scratch"]
    command: ["/bin/sh", "-c", "mkdir -p /out && echo \\"$$GREETING\\" > /out/env.txt && cat /run/secrets/token > /out/secret.txt && cat /page.txt > /out/config.txt && cat /www/index.html > /out/file.txt && exec httpd -f -p 8080 -h /out"]
    ports: ["${port}:8080"]
secrets:
  token: { file: token.txt }
configs:
  page: { content: "config for \${NAME}" }
  index: { file: www/index.html }
volumes:
  scratch: { driver: local, driver_opts: { type: tmpfs, device: tmpfs, o: "size=1m" } }
`;
    repo.commit({ 'deploy/stack.yml': file, 'deploy/app.env': 'GREETING=hello from the env file\n', 'deploy/token.txt': 'first token', 'deploy/www/index.html': 'a file of the repository\n' });
    const { composeId, appName } = await stack({ sourceType: 'git', customGitUrl: repo.dir, customGitBranch: 'main', composePath: 'deploy/stack.yml', env: 'NAME=berth' });
    const first = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(first.status, 'done', first.reason);
    const page = (path: string) => eventually(`the service to serve ${path}`, () => served(port, path), 60_000);
    assert.equal(await page('/env.txt'), 'hello from the env file\n');
    assert.equal(await page('/secret.txt'), 'first token');
    assert.equal(await page('/config.txt'), 'config for berth');
    assert.equal(await page('/file.txt'), 'a file of the repository\n');
    assert.match((await berth.ok('deployment.logs', { deploymentId: first.deploymentId })).log, /A stack does not use, so ignores: services\.show\.restart/);
    // The named volume was made by the driver, with the options, the file gives it.
    const volume = await dockerClient().getVolume(`${appName}_scratch`).inspect();
    assert.deepEqual([volume.Driver, volume.Options], ['local', { type: 'tmpfs', device: 'tmpfs', o: 'size=1m' }]);
    const [firstSecret] = await stacks.objects('secret', appName);

    repo.commit({ 'deploy/token.txt': 'second token' }, 'rotate the token');
    const second = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(second.status, 'done', second.reason);
    assert.equal(await eventually('the new token to be served', async () => (await served(port, '/secret.txt')) === 'second token' || null, 60_000), true);
    const secrets = await stacks.objects('secret', appName);
    assert.equal(secrets.length, 1, `secrets of the stack: ${secrets.join(', ')}`);
    assert.notEqual(secrets[0], firstSecret);

    const withExternal = file.replace('secrets: [token]', 'secrets: [token, elsewhere]')
      .replace('  token: { file: token.txt }\n', '  token: { file: token.txt }\n  elsewhere: { external: true, name: berth-test-absent-secret }\n');
    repo.commit({ 'deploy/stack.yml': withExternal }, 'use an external secret');
    const missing = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(missing.status, 'error');
    assert.match(missing.reason, /the secret "berth-test-absent-secret" is external and the engine has none by that name/);
    assert.equal(await served(port, '/secret.txt'), 'second token');

    await berth.ok('compose.delete', { composeId });
    await eventually('the stack and its secrets and configs to be removed', async () =>
      (await stacks.services(appName)).length === 0 && (await stacks.objects('secret', appName)).length === 0
      && (await stacks.objects('config', appName)).length === 0, 60_000);
  });

  it('holds the host ports its file publishes in the one namespace with databases\' external ports, from its deploy until its file or it goes', async () => {
    const [held, published, moved] = [await freePort(), await freePort(), await freePort()];
    const database = await berth.ok('dbgamma.create', { name: 'ports', appName: `ports-${held}`, projectId, ...databaseCredentials('dbgamma') });
    const port = (externalPort: number) => ({ dbgammaId: database.dbgammaId, externalPort });
    const databaseTakes = (externalPort: number) => berth.ok('dbgamma.saveExternalPort', port(externalPort));
    const databaseIsRefused = (externalPort: number) => berth.refused('dbgamma.saveExternalPort', port(externalPort), 409, 'externalPort');
    await databaseTakes(held);

    // A file publishing the database's port fails before anything is brought up.
    const { composeId, appName } = await stack({ composeFile: TWO_SERVICES, env: `PORT=${held}` });
    const refused = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(refused.status, 'error');
    assert.match(refused.reason, new RegExp(`the compose file publishes the host port ${held}/tcp, which another service holds`));
    assert.deepEqual(await stacks.services(appName), []);

    // Deployed, the stack holds its port: the database cannot have it.
    await berth.ok('compose.update', { composeId, env: `PORT=${published}` });
    const deployed = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(deployed.status, 'done', deployed.reason);
    await databaseIsRefused(published);

    // The file moved to another port: the old one is free once that deploy fetched it; after delete, every one is.
    await berth.ok('compose.update', { composeId, env: `PORT=${moved}` });
    const redeployed = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(redeployed.status, 'done', redeployed.reason);
    await databaseTakes(published);
    await databaseIsRefused(moved);
    await berth.ok('compose.delete', { composeId });
    await databaseTakes(moved);
  });

  it('redeploys a service renamed in the file on the host port its former self held, removing that one first; a failed redeploy brings it back', async () => {
    const port = await freePort();
    const file = (name: string, image: string) => `services:\n  ${name}:\n    image: ${image}\n    ports: ["${port}:8080"]\n`;
    const { composeId, appName } = await stack({ composeFile: file('web', TEST_IMAGE) });
    const deploy = async () => ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal((await deploy()).status, 'done');

    await berth.ok('compose.update', { composeId, composeFile: file('site', TEST_IMAGE) });
    const renamed = await deploy();
    assert.equal(renamed.status, 'done', renamed.reason);
    assert.deepEqual(await stacks.services(appName), [`${appName}_site`]);
    assert.equal(await eventually('the renamed service to serve', () => httpBody(port)), 'berth-test httpd\n');

    await berth.ok('compose.update', { composeId, composeFile: file('front', 'berth-test/none:missing') });
    const failed = await deploy();
    assert.equal(failed.status, 'error');
    assert.deepEqual(await stacks.services(appName), [`${appName}_site`], 'the service of the previous version is back');
    assert.equal(await eventually('the previous version to serve again', () => httpBody(port)), 'berth-test httpd\n');
  });
});
