// An appName is the engine's name for a service (its service, a database's data volume, its
// images): it may change until the service is first deployed, and is refused with 409 after.
// No reactors run here: a deployment is queued and stays so, which is enough.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';

const COMPOSE_FILE = 'services:\n  web:\n    image: nginx\n';

describe('renaming a service', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth({ config: { actionWaitMs: 200 } });
    ({ projectId } = await berth.ok('project.create', { name: 'renames' }));
  });
  after(() => berth.stop());

  it('renames an application until it is deployed, then refuses naming appName', async () => {
    const { applicationId } = await berth.ok('application.create', { name: 'web', projectId });
    assert.equal((await berth.ok('application.update', { applicationId, appName: 'web-renamed' })).appName, 'web-renamed');
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'example/web:1' });
    await berth.ok('application.deploy', { applicationId });
    const refused = await berth.refused('application.update', { applicationId, appName: 'web-again' }, 409, 'appName');
    assert.match(refused.message, /deployed/);
    assert.equal((await berth.ok('application.one', { applicationId })).appName, 'web-renamed');
    assert.equal((await berth.ok('application.update', { applicationId, appName: 'web-renamed', name: 'same name kept' })).name, 'same name kept');
  });

  it('renames a compose service whose only deployment was cancelled before it ran, and refuses once one is queued', async () => {
    const { composeId } = await berth.ok('compose.create', { name: 'shop', projectId });
    await berth.ok('compose.update', { composeId, composeFile: COMPOSE_FILE });
    await berth.ok('compose.deploy', { composeId });
    await berth.ok('compose.cleanQueues', { composeId });
    assert.equal((await berth.ok('compose.update', { composeId, appName: 'shop-renamed' })).appName, 'shop-renamed');
    await berth.ok('compose.deploy', { composeId });
    await berth.refused('compose.update', { composeId, appName: 'shop-again' }, 409, 'appName');
  });

  it('refuses to rename a database once it was deployed: its data volume carries the name', async () => {
    const { dbgammaId } = await berth.ok('dbgamma.create', { name: 'pg', appName: 'pg', projectId, ...databaseCredentials('dbgamma') });
    // Without reactors the deploy is queued, then answered 409 past the bounded wait.
    await berth.call('dbgamma.deploy', { dbgammaId });
    await berth.refused('dbgamma.update', { dbgammaId, appName: 'pg-renamed' }, 409, 'appName');
  });
});
