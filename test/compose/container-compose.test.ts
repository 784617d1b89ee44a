// container-compose: the compose project appName brought up on the engine by the compose tool
// (Debian's docker-compose here), its two services talking over the project's network; stop stops
// its containers, delete removes them and the network, also when the file of the deploy is gone or
// changed since. allServices of a git source lists the services of the file its last deploy fetched.
// Without the tool, a deployment error names it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { composeTool } from '@berth/reactors/compose/container-compose';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, eventually } from '../support/engine.ts';
import { freePort } from '../support/http.ts';
import {TWO_SERVICES, served } from '../support/stacks.ts';
import { deploymentRecordsOf, ended } from '../support/deployments.ts';
import { gitRepo, type GitRepo } from '../support/git-repo.ts';
import { docker, projectContainers as containers, projectObjects as labelled, removeComposeProjects } from '../support/compose-projects.ts';

/** TWO_SERVICES on a fixed port, `probe` keeping its page in the named volume `pages`. */
const withVolume = (port: number) => `${TWO_SERVICES.replace('${PORT}', String(port))
  .replace('    networks: [back]\nnetworks:', '    networks: [back]\n    volumes: ["pages:/pages"]\nnetworks:')}volumes:\n  pages: {}\n`;
/** Only `web`, as a file that once named `probe` too may read after an edit. */
const WEB_ONLY = TWO_SERVICES.split('  probe:')[0] + 'networks:\n  back: {}\n';

describe('container-compose on the real engine', () => {
  let berth: TestBerth;
  let projectId: string;
  const projects: string[] = [];
  const repos: GitRepo[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'compose projects' }));
  });
  after(async () => {
    removeComposeProjects(projects);
    for (const repo of repos) repo.remove();
    await berth.stop();
  });

  it('runs the project with the compose tool; its services talk by name; stop stops it; delete removes it', async () => {
    const port = await freePort();
    const created = await berth.ok('compose.create', { name: 'pair', projectId, composeType: 'container-compose' });
    const { composeId, appName } = created;
    projects.push(appName);
    await berth.ok('compose.update', { composeId, composeFile: TWO_SERVICES, env: `PORT=${port}` });
    const queued = await berth.ok('compose.deploy', { composeId });
    const deployment = await ended(berth, queued.deploymentId);
    assert.equal(deployment.status, 'done', deployment.reason);
    await eventually('the compose service to be done', async () => (await berth.ok('compose.one', { composeId })).composeStatus === 'done');
    assert.equal(containers(appName).length, 2);
    assert.equal(await eventually('the probe to fetch web', () => served(port, '/fetched.html'), 60_000), 'berth-test httpd\n');

    assert.equal((await berth.ok('compose.stop', { composeId })).composeStatus, 'idle');
    assert.deepEqual(containers(appName), []);

    await berth.ok('compose.delete', { composeId });
    // The network goes after the containers, a moment later.
    await eventually('the project, its network and its deployment records to be removed', async () => containers(appName, true).length === 0
      && labelled('network', appName).length === 0 && (await deploymentRecordsOf(berth, 'composeId', composeId)).length === 0, 60_000);
  });

  it("brings the project up with the service's own command in place of the default one, and says so in the log", async () => {
    const port = await freePort();
    const { composeId, appName } = await berth.ok('compose.create', { name: 'web only', projectId, composeType: 'container-compose' });
    projects.push(appName);
    await berth.ok('compose.update', { composeId, composeFile: TWO_SERVICES, env: `PORT=${port}`, command: 'up -d web' });
    const deployment = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(deployment.status, 'done', deployment.reason);
    const running = containers(appName);
    assert.equal(running.length, 1);
    assert.equal(docker('inspect', '-f', '{{index .Config.Labels "com.docker.compose.service"}}', running[0]!), 'web');
    assert.match((await berth.ok('deployment.logs', { deploymentId: deployment.deploymentId })).log, /the service's command: up -d web/);
    await berth.ok('compose.delete', { composeId });
    await eventually('the project to be removed', async () => containers(appName, true).length === 0, 60_000);
  });

  /** A container-compose service of the git repository's file at `composePath`. */
  async function fromGit(name: string, repo: GitRepo, composePath: string) {
    const created = await berth.ok('compose.create', { name, projectId, composeType: 'container-compose' });
    projects.push(created.appName);
    await berth.ok('compose.update', {
      composeId: created.composeId, sourceType: 'git', customGitUrl: repo.dir, customGitBranch: 'main', composePath,
    });
    return created as { composeId: string; appName: string };
  }

  async function deployed(composeId: string) {
    const deployment = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(deployment.status, 'done', deployment.reason);
  }

  it('keeps what a project wrote through a ./data bind into its folder when a deploy fetches a new commit', async () => {
    const repo = gitRepo();
    repos.push(repo);
    // Each start of the container adds a line to data/boots, through the bind into the checkout.
    const file = (version: string) => `services:\n  web:\n    image: ${TEST_IMAGE}\n    environment: { VERSION: "${version}" }\n`
      + '    volumes: ["./data:/data"]\n    command: ["/bin/sh", "-c", "echo boot >> /data/boots && exec httpd -f -p 8080 -h /data"]\n';
    repo.commit({ 'compose.yml': file('1') });
    const { composeId, appName } = await fromGit('kept data', repo, 'compose.yml');
    await deployed(composeId);
    const boots = join(berth.dataDir, 'sources', appName, 'source', 'data', 'boots');
    await eventually('the first start to write its line', async () => existsSync(boots));
    repo.commit({ 'compose.yml': file('2') }, 'a new version');
    await deployed(composeId);
    // The new version's container started on the data the first one wrote.
    await eventually('the second start to add its line', async () => readFileSync(boots, 'utf8') === 'boot\nboot\n');
    const { log } = await berth.ok('deployment.logs', { deploymentId: (await berth.ok('deployment.all', { composeId }))[0].deploymentId });
    assert.match(log, /Updating the checkout from/);
    await berth.ok('compose.delete', { composeId });
    await eventually('the project to be removed', async () => containers(appName, true).length === 0, 60_000);
  });

  it('deleting a container-compose service removes its containers even when its compose file changed since the deploy', async () => {
    const repo = gitRepo();
    repos.push(repo);
    repo.commit({ 'compose.yml': withVolume(await freePort()) });
    const { composeId, appName } = await fromGit('moved file', repo, 'compose.yml');
    await deployed(composeId);
    assert.equal(containers(appName).length, 2);
    assert.equal(labelled('network', appName).length, 1);
    assert.equal(labelled('volume', appName).length, 1);

    // The service's file is another one now, not deployed yet: not even in the fetched repository.
    repo.commit({ 'web-only.yml': WEB_ONLY }, 'a file with web only');
    await berth.ok('compose.update', { composeId, composePath: 'web-only.yml' });
    await berth.ok('compose.delete', { composeId });
    await eventually('the project to be removed', async () => containers(appName, true).length === 0
      && labelled('network', appName).length === 0 && (await deploymentRecordsOf(berth, 'composeId', composeId)).length === 0, 60_000);
    assert.equal(labelled('volume', appName).length, 1, 'the named volume is kept, as `down` without -v keeps it');
  });

  it('stopping a container-compose service stops every container of its project, after its text lost a service and its sources were cleaned', async () => {
    const port = await freePort();
    const { composeId, appName } = await berth.ok('compose.create', { name: 'edited', projectId, composeType: 'container-compose' });
    projects.push(appName);
    await berth.ok('compose.update', { composeId, composeFile: TWO_SERVICES, env: `PORT=${port}` });
    await deployed(composeId);
    assert.equal(containers(appName).length, 2);

    await berth.ok('compose.update', { composeId, composeFile: WEB_ONLY });
    rmSync(join(berth.dataDir, 'sources', appName), { recursive: true, force: true });
    assert.equal((await berth.ok('compose.stop', { composeId })).composeStatus, 'idle');
    assert.deepEqual(containers(appName), []);
    assert.equal(containers(appName, true).length, 2, 'stop keeps the containers');

    await berth.ok('compose.delete', { composeId });
    // The network goes after the containers, a moment later.
    await eventually('the project to be removed', async () => containers(appName, true).length === 0 && labelled('network', appName).length === 0, 60_000);
  });

  it('lists the services of the file a git compose service last fetched: none before its first deploy', async () => {
    const repo = gitRepo();
    repos.push(repo);
    repo.commit({ 'deploy/compose.yml': TWO_SERVICES.replace('${PORT}', String(await freePort())), 'web-only.yml': WEB_ONLY });
    const { composeId, appName } = await fromGit('listed', repo, 'deploy/compose.yml');
    assert.deepEqual(await berth.ok('compose.allServices', { composeId }), []);
    await deployed(composeId);
    assert.deepEqual(await berth.ok('compose.allServices', { composeId }), ['web', 'probe']);

    // A new path is read at the next deploy: until then, the services are those of the last fetched file.
    await berth.ok('compose.update', { composeId, composePath: 'web-only.yml' });
    assert.deepEqual(await berth.ok('compose.allServices', { composeId }), ['web', 'probe']);
    await deployed(composeId);
    assert.deepEqual(await berth.ok('compose.allServices', { composeId }), ['web']);
    await berth.ok('compose.delete', { composeId });
    await eventually('the project to be removed', async () => containers(appName, true).length === 0, 60_000);
  });

  it('fails a deployment whose command is a whole command line, saying what the command holds, and starts nothing', async () => {
    const { composeId, appName } = await berth.ok('compose.create', { name: 'whole line', projectId, composeType: 'container-compose' });
    projects.push(appName);
    // Refused on save (compose-settings-save.test.ts): getDefaultCommand's line becomes one once composePath changes.
    const line = await berth.ok('compose.getDefaultCommand', { composeId });
    await berth.ok('compose.update', { composeId, composeFile: TWO_SERVICES, env: 'PORT=0', command: line });
    await berth.ok('compose.update', { composeId, composePath: 'elsewhere.yml' });
    const deployment = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(deployment.status, 'error');
    assert.match(deployment.reason, /compose tool's arguments \(for example "up -d web"\), not a whole command line/);
    assert.deepEqual(containers(appName, true), []);
  });

  it('gives a service no "." in its appName, which names its project: it is stopped and deleted as any other', async () => {
    const port = await freePort();
    const { composeId, appName } = await berth.ok('compose.create', { name: 'site v1.2', projectId, composeType: 'container-compose' });
    assert.match(appName, /^site-v1-2-[0-9a-f]{6}$/);
    projects.push(appName);
    // The compose tools drop a ".": a.b and ab would be one project, each service's stop and delete acting on the other's.
    await berth.refused('compose.update', { composeId, appName: 'site.v1' }, 400, 'appName');
    const stack = await berth.ok('compose.create', { name: 'other', projectId, composeType: 'stack' });
    await berth.ok('compose.update', { composeId: stack.composeId, appName: 'other.v1' });
    await berth.refused('compose.update', { composeId: stack.composeId, composeType: 'container-compose' }, 400, 'appName');
    await berth.ok('compose.delete', { composeId: stack.composeId });

    await berth.ok('compose.update', { composeId, composeFile: WEB_ONLY.replace('    networks: [back]', `    networks: [back]\n    ports: ["${port}:8080"]`) });
    await deployed(composeId);
    assert.equal(containers(appName).length, 1);
    assert.equal((await berth.ok('compose.stop', { composeId })).composeStatus, 'idle');
    assert.deepEqual(containers(appName), [], 'stop stops the container');
    await berth.ok('compose.delete', { composeId });
    await eventually('the project and its network to be removed', async () => containers(appName, true).length === 0
      && labelled('network', appName).length === 0, 60_000);
  });

  it('fails a deployment naming the compose tool when it is not installed', async () => {
    await assert.rejects(composeTool(async () => false), /compose tool \(docker compose or docker-compose\).*not installed/);
  });
});
