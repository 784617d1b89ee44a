// A database's stop answers once the runtime has done it (behaviour.md): when the answer comes, no
// container of the database runs any more, as with an application's stop.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { DATABASE_IMAGE, docker, removeService } from '../support/database-services.ts';

describe('database stop', { timeout: 300_000 }, () => {
  let berth: TestBerth;
  let appName = '';
  before(async () => { berth = await startBerthWithReactors({ config: { actionWaitMs: 120_000 } }); });
  after(async () => {
    if (appName) await removeService(appName);
    await berth.stop();
  });

  it('answers idle only after the database\'s container is gone', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'stop-waits' });
    const created = await berth.ok('dbepsilon.create', {
      name: 'halt', appName: 'halt', projectId, containerImage: DATABASE_IMAGE.dbepsilon, databasePassword: 'Stop-Waits-Pass-2',
    });
    const dbepsilonId = created.dbepsilonId;
    appName = created.appName;
    await berth.ok('dbepsilon.deploy', { dbepsilonId });
    const running = async () => (await docker('ps', '-q', '--filter', `label=com.docker.swarm.service.name=${appName}`)).trim();
    assert.notEqual(await running(), '', 'deployed and running');

    const stopped = await berth.ok('dbepsilon.stop', { dbepsilonId });
    assert.equal(stopped.applicationStatus, 'idle');
    assert.equal(await running(), '', 'no container of the database runs when stop answers');
  });
});
