// A reload of a service the engine holds scaled to 0, whatever its record says (a status set by
// hand after a stop): refused at once saying it is stopped, not answered done with nothing running
// (an application), nor left to wait out its whole bound (a database).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, engine, removeDeployed } from '../support/engine.ts';
import { DATABASE_IMAGE, removeService } from '../support/database-services.ts';
import { until } from '../support/deployer.ts';

describe('a reload of a stopped service whose status says otherwise', () => {
  let berth: TestBerth;
  let projectId: string;
  const apps: string[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'reload stopped' }));
  });
  after(async () => {
    await removeDeployed(apps);
    for (const name of apps) await removeService(name);
    await berth.stop();
  });

  it('refuses an application\'s, saying it is stopped, and starts nothing', async () => {
    const { applicationId, appName } = await berth.ok('application.create', { name: 'web', projectId });
    apps.push(appName);
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: TEST_IMAGE });
    const { deploymentId } = await berth.ok('application.deploy', { applicationId });
    assert.equal((await until(berth, deploymentId, 'done', 90_000)).status, 'done');
    await berth.ok('application.stop', { applicationId });
    await berth.ok('application.markRunning', { applicationId });
    const answer = await berth.call('application.reload', { applicationId, appName });
    assert.equal(answer.status, 409, JSON.stringify(answer.body));
    assert.match(answer.body.message, new RegExp(`${appName} is stopped: it has no running tasks to reload; start it$`));
    assert.deepEqual((await engine.listTasks(appName)).filter((task) => task.state === 'running'), []);
  });

  it('refuses a database\'s at once, saying it is stopped', async () => {
    const db = await berth.ok('dbepsilon.create', { name: 'kv', appName: 'kv', projectId, containerImage: DATABASE_IMAGE.dbepsilon, databasePassword: 'Reload-Pass-7' });
    apps.push(db.appName);
    await berth.ok('dbepsilon.deploy', { dbepsilonId: db.dbepsilonId });
    await berth.ok('dbepsilon.stop', { dbepsilonId: db.dbepsilonId });
    await berth.ok('dbepsilon.changeStatus', { dbepsilonId: db.dbepsilonId, applicationStatus: 'done' });
    const started = Date.now();
    const answer = await berth.call('dbepsilon.reload', { dbepsilonId: db.dbepsilonId, appName: db.appName });
    assert.equal(answer.status, 409, JSON.stringify(answer.body));
    assert.match(answer.body.message, new RegExp(`${db.appName} is stopped: it has no running tasks to reload; start it$`));
    assert.ok(Date.now() - started < 20_000, `answered in ${Date.now() - started} ms`);
  });
});
