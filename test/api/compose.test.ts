import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseComposeFile } from '@berth/shared/domain/compose/compose-file';
import { startBerth, type TestBerth } from '../support/berth.ts';

const FILE = `services:
  web:
    image: nginx
    depends_on: [db]
    volumes: ["data:/srv"]
  db:
    image: dbgamma:15
volumes:
  data: {}
`;

/** A compose file's text as plain data. */
const parse = (text: string) => parseComposeFile(text)?.toJS();

describe('compose operations', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'compose project' }));
  });
  after(() => berth.stop());

  const create = (input: Record<string, unknown> = {}) => berth.ok('compose.create', { name: 'shop', projectId, ...input });

  it('creates a raw container-compose service, readable at once and listed in its project', async () => {
    const created = await create({ appName: 'Shop Front' });
    assert.match(created.appName, /^shop-front-[0-9a-f]{6}$/);
    assert.equal(created.composeType, 'container-compose');
    assert.equal(created.sourceType, 'raw');
    assert.equal(created.composeFile, '');
    assert.equal(created.composePath, 'docker-compose.yml');
    assert.equal(created.command, '');
    assert.equal(created.composeStatus, 'idle');
    assert.equal(typeof created.refreshToken, 'string');
    assert.equal(created.customGitSSHKey, null);
    assert.deepEqual(await berth.ok('compose.one', { composeId: created.composeId }), created);
    const project = await berth.ok('project.one', { projectId });
    assert.ok(project.compose.some((c: { composeId: string }) => c.composeId === created.composeId));
  });

  it('creates a stack when asked', async () => {
    assert.equal((await create({ composeType: 'stack' })).composeType, 'stack');
  });

  it('refuses a create in a missing project, naming projectId', async () => {
    await berth.refused('compose.create', { name: 'x', projectId: 'nope' }, 404, 'projectId');
  });

  it('updates any field, takes createdAt only as read, and lists the services of the saved file', async () => {
    const { composeId, createdAt } = await create();
    const updated = await berth.ok('compose.update', {
      composeId, composeFile: FILE, description: 'the shop', composePath: 'deploy/compose.yml', autoDeploy: true, createdAt,
    });
    assert.equal(updated.composeFile, FILE);
    assert.equal(updated.description, 'the shop');
    assert.equal(updated.createdAt, createdAt);
    await berth.refused('compose.update', { composeId, createdAt: '2000-01-01T00:00:00.000Z' }, 400, 'createdAt');
    assert.deepEqual(await berth.ok('compose.allServices', { composeId }), ['web', 'db']);
  });

  it('refuses a compose file that is not YAML with a services mapping, naming composeFile', async () => {
    const { composeId } = await create();
    await berth.refused('compose.update', { composeId, composeFile: 'services: [web' }, 400, 'composeFile');
    await berth.refused('compose.update', { composeId, composeFile: 'web:\n  image: nginx\n' }, 400, 'composeFile');
  });

  it('refuses to move a service into a missing project, naming projectId', async () => {
    const { composeId } = await create();
    await berth.refused('compose.update', { composeId, projectId: 'nope' }, 404, 'projectId');
  });

  it('lists no services for an empty file', async () => {
    const { composeId } = await create();
    assert.deepEqual(await berth.ok('compose.allServices', { composeId }), []);
  });

  it('shows the command it runs for a compose project and for a stack', async () => {
    const read = async (composeId: string) => {
      // The answer is a string: read it whether it travels as JSON or as text.
      const response = await berth.app.inject({
        method: 'GET', url: '/api/compose.getDefaultCommand', query: { composeId }, headers: { authorization: `Bearer ${berth.token}` },
      });
      assert.equal(response.statusCode, 200);
      return String(response.headers['content-type']).startsWith('application/json') ? JSON.parse(response.body) : response.body;
    };
    const compose = await create();
    assert.equal(await read(compose.composeId), `docker compose -p ${compose.appName} -f docker-compose.yml up -d --build --remove-orphans`);
    const stack = await create({ composeType: 'stack' });
    assert.equal(await read(stack.composeId), `docker stack deploy -c docker-compose.yml ${stack.appName} --prune --with-registry-auth`);
  });

  it('generates an SSH key whose private half is hidden and never in clear in the log, then removes it', async () => {
    const { composeId } = await create();
    const withKey = await berth.ok('compose.generateSSHKey', { composeId });
    assert.match(withKey.customGitSSHKey, /^ssh-ed25519 /);
    assert.equal('sshPrivateKey' in withKey, false);
    assert.equal('sshPrivateKey' in (await berth.ok('compose.one', { composeId })), false);
    assert.doesNotMatch(await berth.eventLog(), /BEGIN OPENSSH PRIVATE KEY/);
    assert.equal((await berth.ok('compose.removeSSHKey', { composeId })).customGitSSHKey, null);
  });

  it('removes the key when an update sets customGitSSHKey to null, and keeps it when the same key is sent back', async () => {
    const { composeId } = await create();
    const { customGitSSHKey } = await berth.ok('compose.generateSSHKey', { composeId });
    const head = await berth.head();
    assert.equal((await berth.ok('compose.update', { composeId, customGitSSHKey })).customGitSSHKey, customGitSSHKey);
    assert.equal(await berth.head(), head);
    assert.equal((await berth.ok('compose.update', { composeId, customGitSSHKey: null })).customGitSSHKey, null);
  });

  it('refreshes the token', async () => {
    const { composeId, refreshToken } = await create();
    const refreshed = await berth.ok('compose.refreshToken', { composeId });
    assert.notEqual(refreshed.refreshToken, refreshToken);
  });

  it('randomizes the stored file with the given prefix and saves it', async () => {
    const { composeId } = await create();
    await berth.ok('compose.update', { composeId, composeFile: FILE });
    const randomized = await berth.ok('compose.randomizeCompose', { composeId, prefix: 'dev' });
    const file = parse(randomized.composeFile);
    assert.deepEqual(Object.keys(file.services), ['web-dev', 'db-dev']);
    assert.deepEqual(file.services['web-dev'].depends_on, ['db-dev']);
    assert.deepEqual(file.services['web-dev'].volumes, ['data-dev:/srv']);
    assert.deepEqual(Object.keys(file.volumes), ['data-dev']);
    assert.equal((await berth.ok('compose.one', { composeId })).composeFile, randomized.composeFile);
  });

  it('randomizes with 8 random hex characters when no prefix is given', async () => {
    const { composeId } = await create();
    await berth.ok('compose.update', { composeId, composeFile: FILE });
    const randomized = await berth.ok('compose.randomizeCompose', { composeId });
    assert.match(Object.keys(parse(randomized.composeFile).services)[0] ?? '', /^web-[0-9a-f]{8}$/);
  });

  it('refuses a prefix that would make invalid names, naming prefix', async () => {
    const { composeId } = await create();
    await berth.ok('compose.update', { composeId, composeFile: FILE });
    await berth.refused('compose.randomizeCompose', { composeId, prefix: 'a b' }, 400, 'prefix');
  });

  it('refuses, naming the field, names that would validate but cannot deploy: a prefix ending in ".", a service named "", a composePath that is a folder', async () => {
    const { composeId } = await create();
    await berth.ok('compose.update', { composeId, composeFile: FILE });
    await berth.refused('compose.randomizeCompose', { composeId, prefix: 'a_b.' }, 400, 'prefix');
    await berth.refused('compose.update', { composeId, composeFile: 'services:\n  "":\n    image: nginx\n' }, 400, 'composeFile');
    for (const composePath of ['.', '..', 'deploy/', 'deploy/.']) await berth.refused('compose.update', { composeId, composePath }, 400, 'composePath');
    assert.equal((await berth.ok('compose.update', { composeId, composePath: 'deploy/compose.yml' })).composePath, 'deploy/compose.yml');
  });

  it('deletes a service, answers it as it was, then answers NOT_FOUND; its appName is free again', async () => {
    const doomed = await create();
    const removed = await berth.ok('compose.delete', { composeId: doomed.composeId });
    assert.equal(removed.composeId, doomed.composeId);
    assert.equal((await berth.call('compose.one', { composeId: doomed.composeId })).status, 404);
    const other = await create();
    assert.equal((await berth.ok('compose.update', { composeId: other.composeId, appName: doomed.appName })).appName, doomed.appName);
  });

  it('refuses an appName another service already has, naming appName', async () => {
    const application = await berth.ok('application.create', { name: 'api', projectId });
    const taken = await create();
    const { composeId } = await create();
    await berth.refused('compose.update', { composeId, appName: application.appName }, 409, 'appName');
    await berth.refused('compose.update', { composeId, appName: taken.appName }, 409, 'appName');
  });

  for (const operation of ['compose.update', 'compose.delete', 'compose.generateSSHKey', 'compose.removeSSHKey',
    'compose.refreshToken', 'compose.randomizeCompose', 'compose.allServices', 'compose.getDefaultCommand', 'compose.one']) {
    it(`answers NOT_FOUND naming composeId for ${operation} on an unknown id`, async () => {
      await berth.refused(operation, { composeId: 'nope' }, 404, 'composeId');
    });
  }

  for (const procedure of ['deploy', 'redeploy', 'stop', 'cleanQueues']) {
    it(`answers ${procedure} with NOT_FOUND naming composeId for an unknown id, appending nothing`, async () => {
      await berth.refused(`compose.${procedure}`, { composeId: 'nope' }, 404, 'composeId');
    });
  }

  it('refuses to deploy a service with nothing to deploy, naming the field to set, and queues nothing', async () => {
    const { composeId } = await create();
    for (const procedure of ['deploy', 'redeploy']) await berth.refused(`compose.${procedure}`, { composeId }, 400, 'composeFile');
    await berth.ok('compose.update', { composeId, sourceType: 'git' });
    await berth.refused('compose.deploy', { composeId }, 400, 'customGitUrl');
    assert.deepEqual(await berth.ok('deployment.all', { composeId }), []);
  });

  it('refuses a compose file that is not YAML or has no services at update, naming composeFile', async () => {
    const { composeId } = await create();
    for (const composeFile of ['services: [web\n', 'services: {}\n', 'version: "3"\n']) {
      const body = await berth.refused('compose.update', { composeId, composeFile }, 400, 'composeFile');
      assert.match(body.issues[0].message, /not valid YAML|no services|"services" mapping/);
    }
  });

  it('queues a deployment of a saved file, listed with the service, and cleanQueues cancels it (no reactors run here)', async () => {
    const { composeId } = await create();
    await berth.ok('compose.update', { composeId, composeFile: FILE });
    const queued = await berth.ok('compose.deploy', { composeId });
    assert.equal(queued.status, 'queued');
    assert.equal(queued.composeId, composeId);
    assert.equal(queued.applicationId, null);
    assert.equal((await berth.ok('compose.cleanQueues', { composeId })).composeId, composeId);
    const [listed] = await berth.ok('deployment.all', { composeId });
    assert.equal(listed.status, 'cancelled');
  });

  it('answers deployTemplate with NOT_FOUND naming the project or the template id that does not exist', async () => {
    await berth.refused('compose.deployTemplate', { projectId: 'nope', id: 'gitea' }, 404, 'projectId');
    await berth.refused('compose.deployTemplate', { projectId, id: 'no-such-template' }, 404, 'id');
  });
});
