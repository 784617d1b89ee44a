// Engine objects Berth did not make, named like a Berth service: an operator's swarm service, stack
// and compose project. A user who names a service after one cannot have Berth act on it: a deploy
// fails with the reason and leaves it as it was; stop and delete leave it running; the container
// views do not show its containers (nor their environment) as the service's.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, eventually, uniqueName } from '../support/engine.ts';
import { deploymentRecordsOf, ended } from '../support/deployments.ts';
import { DATABASE_IMAGE } from '../support/database-services.ts';
import { removeStacks } from '../support/stacks.ts';
import { invitedUser, type TestUser } from '../support/users.ts';

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const lines = (text: string) => text.split('\n').filter(Boolean);
const SECRET = 'operator-secret-4242';
const FILE = `services:\n  db:\n    image: ${TEST_IMAGE}\n    environment:\n      DB_PASSWORD: ${SECRET}\n`;

/** The swarm service's spec and version as the engine holds them. */
const serviceState = (name: string) => docker('service', 'inspect', name, '--format', '{{json .Spec}} {{.Version.Index}}');
const running = (filter: string) => lines(docker('ps', '-q', '--filter', filter));

describe('engine objects Berth did not make, named like a service of a user', () => {
  let berth: TestBerth;
  let projectId: string;
  let user: TestUser;
  const dir = mkdtempSync(join(tmpdir(), 'berth-foreign-'));
  const file = join(dir, 'compose.yml');
  const service = uniqueName('op-svc');
  const dbService = uniqueName('op-db');
  const stack = uniqueName('op-stk');
  const project = uniqueName('op-prj');
  const ids: Record<string, string> = {};

  before(async () => {
    writeFileSync(file, FILE);
    docker('service', 'create', '--detach', '--name', dbService, TEST_IMAGE);
    docker('service', 'create', '--detach', '--name', service, '--label', 'operator=yes', '--env', `DB_PASSWORD=${SECRET}`, TEST_IMAGE);
    docker('stack', 'deploy', '--detach=true', '-c', file, stack);
    execFileSync('docker-compose', ['-p', project, '-f', file, 'up', '-d'], { stdio: 'ignore' });
    berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'foreign names' }));
    const { applicationId } = await berth.ok('application.create', { name: 'svc', projectId });
    await berth.ok('application.update', { applicationId, appName: service });
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: TEST_IMAGE });
    ids.application = applicationId;
    for (const [key, appName, composeType] of [['stack', stack, 'stack'], ['project', project, 'container-compose']] as const) {
      const { composeId } = await berth.ok('compose.create', { name: key, projectId, composeType });
      await berth.ok('compose.update', { composeId, appName, composeFile: FILE });
      ids[key] = composeId;
    }
    user = await invitedUser(berth, {
      canAccessToContainer: true, canDeleteServices: true,
      accesedProjects: [projectId], accesedServices: [ids.application, ids.stack, ids.project],
    });
    await eventually('the operator\'s stack and service to run', async () =>
      running(`label=com.docker.stack.namespace=${stack}`).length > 0 && running(`label=com.docker.swarm.service.name=${service}`).length > 0, 60_000);
  });

  after(async () => {
    await berth?.stop();
    docker('service', 'rm', service, dbService);
    // What a deploy over the operator's service would have made (none when the deploy is refused).
    await eventually('the database volume to be free', async () => {
      try { docker('volume', 'rm', '-f', `${dbService}-data`); return true; } catch { return false; }
    });
    await removeStacks([stack]);
    execFileSync('docker-compose', ['-p', project, '-f', file, 'down'], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });

  it('a deploy of an application named like an operator\'s swarm service fails with the reason and leaves the service as it was', async () => {
    const before = serviceState(service);
    const { deploymentId } = await berth.ok('application.deploy', { applicationId: ids.application });
    const deployment = await ended(berth, deploymentId);
    assert.equal(deployment.status, 'error');
    assert.match(JSON.stringify(deployment), new RegExp(`a swarm service named ${service} exists on the engine that Berth did not make for this service: rename the service or remove it`));
    assert.equal(serviceState(service), before);
    // Stop and delete of the application leave it running, unchanged.
    await berth.call('application.stop', { applicationId: ids.application }, { token: user.token });
    await berth.ok('application.delete', { applicationId: ids.application });
    assert.equal(serviceState(service), before);
    assert.equal(running(`label=com.docker.swarm.service.name=${service}`).length, 1);
  });

  it('a deploy of a database named like an operator\'s swarm service fails with the reason and leaves the service as it was', async () => {
    const before = serviceState(dbService);
    const { dbepsilonId } = await berth.ok('dbepsilon.create', {
      name: 'db', appName: 'db', projectId, containerImage: DATABASE_IMAGE.dbepsilon, databasePassword: 'Db-Pass-4242',
    });
    await berth.ok('dbepsilon.update', { dbepsilonId, appName: dbService });
    await berth.call('dbepsilon.deploy', { dbepsilonId });
    const [deployment] = await deploymentRecordsOf(berth, 'databaseId', dbepsilonId);
    assert.match(JSON.stringify(deployment), new RegExp(`a swarm service named ${dbService} exists on the engine that Berth did not make for this service`));
    await berth.call('dbepsilon.stop', { dbepsilonId });
    await berth.ok('dbepsilon.remove', { dbepsilonId });
    assert.equal(serviceState(dbService), before);
  });

  it('the container views show none of an operator\'s compose project, stack or service as a user\'s service\'s', async () => {
    for (const appName of [project, stack]) {
      for (const operation of ['container.getContainersByAppLabel', 'container.getContainersByAppNameMatch']) {
        const found = await berth.call(operation, { appName }, { token: user.token });
        assert.equal(found.status, 200, JSON.stringify(found.body));
        assert.deepEqual(found.body, [], `${operation} ${appName}`);
      }
    }
    for (const containerId of [...running(`label=com.docker.compose.project=${project}`), ...running(`label=com.docker.stack.namespace=${stack}`)]) {
      // Not one of the user's services' containers: unknown to it, as an id that names none.
      const config = await berth.call('container.getConfig', { containerId }, { token: user.token });
      assert.equal(config.status, 404, JSON.stringify(config.body));
      assert.doesNotMatch(JSON.stringify(config.body), new RegExp(SECRET));
    }
  });

  it('a compose deploy named like an operator\'s stack or compose project fails with the reason; stop and delete leave them running', async () => {
    const projectContainers = docker('ps', '--filter', `label=com.docker.compose.project=${project}`, '--format', '{{.ID}} {{.State}} {{.CreatedAt}}');
    const stackServices = lines(docker('service', 'ls', '-q', '--filter', `label=com.docker.stack.namespace=${stack}`)).map(serviceState);
    for (const [key, kind, name] of [['project', 'compose project', project], ['stack', 'stack', stack]] as const) {
      const { deploymentId } = await berth.ok('compose.deploy', { composeId: ids[key] });
      const deployment = await ended(berth, deploymentId);
      assert.equal(deployment.status, 'error', key);
      assert.match(JSON.stringify(deployment), new RegExp(`a ${kind} named ${name} exists on the engine that Berth did not make for this service`));
      await berth.call('compose.stop', { composeId: ids[key] }, { token: user.token });
      await berth.ok('compose.delete', { composeId: ids[key] });
    }
    assert.equal(docker('ps', '--filter', `label=com.docker.compose.project=${project}`, '--format', '{{.ID}} {{.State}} {{.CreatedAt}}'), projectContainers);
    assert.deepEqual(lines(docker('service', 'ls', '-q', '--filter', `label=com.docker.stack.namespace=${stack}`)).map(serviceState), stackServices);
    assert.equal(running(`label=com.docker.stack.namespace=${stack}`).length, 1);
    assert.equal(lines(docker('network', 'ls', '-q', '--filter', `label=com.docker.compose.project=${project}`)).length, 1);
  });
});
