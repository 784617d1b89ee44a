// container-compose: the compose project appName brought up on the engine by the compose tool
// (Debian's docker-compose here), its two services talking over the project's network; stop stops
// its containers, delete removes them and the network. Without the tool, a deployment error names it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { composeTool } from '@berth/reactors/compose/container-compose';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { eventually } from '../support/engine.ts';
import { freePort } from '../support/http.ts';
import {TWO_SERVICES, served } from '../support/stacks.ts';
import { ended } from '../support/deployments.ts';

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim();
/** Ids of the project's containers, running only unless `all`. */
const containers = (project: string, all = false) =>
  docker('ps', '-q', ...(all ? ['-a'] : []), '--filter', `label=com.docker.compose.project=${project}`).split('\n').filter(Boolean);

describe('container-compose on the real engine', () => {
  let berth: TestBerth;
  let projectId: string;
  const projects: string[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'compose projects' }));
  });
  after(async () => {
    for (const project of projects) {
      const left = containers(project, true);
      if (left.length > 0) docker('rm', '-f', ...left);
      docker('network', 'prune', '-f', '--filter', `label=com.docker.compose.project=${project}`);
    }
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
    await eventually('the project and its deployment records to be removed', async () =>
      containers(appName, true).length === 0 && (await berth.ok('deployment.all', { composeId })).length === 0, 60_000);
    assert.equal(docker('network', 'ls', '-q', '--filter', `label=com.docker.compose.project=${appName}`), '');
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

  it('fails a deployment whose command is a whole command line, saying what the command holds, and starts nothing', async () => {
    const { composeId, appName } = await berth.ok('compose.create', { name: 'whole line', projectId, composeType: 'container-compose' });
    projects.push(appName);
    await berth.ok('compose.update', { composeId, composeFile: TWO_SERVICES, env: 'PORT=0', command: 'docker compose up -d' });
    const deployment = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(deployment.status, 'error');
    assert.match(deployment.reason, /compose tool's arguments \(for example "up -d web"\), not a whole command line/);
    assert.deepEqual(containers(appName, true), []);
  });

  it('fails a deployment naming the compose tool when it is not installed', async () => {
    await assert.rejects(composeTool(async () => false), /compose tool \(docker compose or docker-compose\).*not installed/);
  });
});
