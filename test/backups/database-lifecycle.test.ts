// A database's runtime on the real engine: deploy, stop, start, reload and remove, with the status
// machine checked at each step, and its data through the external port surviving the restarts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { client, docker, freePort, removeService, until } from '../support/database-services.ts';

const PASSWORD = 'Life-Cycle-Pass-5';

describe('database service lifecycle on the engine', { timeout: 300_000 }, () => {
  let berth: TestBerth;
  let appName = '';
  // The deployer runs database deployments, as it runs applications'.
  before(async () => { berth = await startBerthWithReactors({ config: { actionWaitMs: 180_000 } }); });
  after(async () => {
    if (appName) await removeService(appName);
    await berth.stop();
  });

  const running = async () => (await docker('ps', '-q', '--filter', `label=com.docker.swarm.service.name=${appName}`)).trim() !== '';

  it('deploys, stops, starts, reloads and removes a dbgamma, moving its status at each step', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'lifecycle' });
    const created = await berth.ok('dbgamma.create', {
      name: 'life', appName: 'life', projectId, containerImage: 'berth-test/dbgamma:current', ...databaseCredentials('dbgamma', { password: PASSWORD }),
    });
    const dbgammaId = created.dbgammaId;
    appName = created.appName;
    assert.equal(created.applicationStatus, 'idle');
    const port = await freePort();
    await berth.ok('dbgamma.saveExternalPort', { dbgammaId, externalPort: port });
    const query = (sql: string) => client('dbgamma', `PGPASSWORD="$PW" psql -qtA -h 127.0.0.1 -p ${port} -U app -d app -c "${sql}"`, { PW: PASSWORD });

    const deployed = await berth.ok('dbgamma.deploy', { dbgammaId });
    assert.equal(deployed.applicationStatus, 'done');
    // Recorded and logged like an application's deployment, with no password in the log.
    const [deployment] = await berth.ok('deployment.all', { databaseId: dbgammaId });
    assert.equal(deployment.status, 'done');
    assert.equal(deployment.databaseType, 'dbgamma');
    const { log } = await berth.ok('deployment.logs', { deploymentId: deployment.deploymentId });
    assert.match(log, /accepts connections/);
    assert.ok(!log.includes(PASSWORD), 'the password stays out of the log');
    await query('CREATE TABLE kept (v text); INSERT INTO kept VALUES (\'still here\');');

    const stopped = await berth.ok('dbgamma.stop', { dbgammaId });
    assert.equal(stopped.applicationStatus, 'idle');
    await until('the task to stop', async () => !(await running()), 60_000);

    const started = await berth.ok('dbgamma.start', { dbgammaId });
    assert.equal(started.applicationStatus, 'done');
    assert.match(await query('SELECT v FROM kept'), /still here/);

    const reloaded = await berth.ok('dbgamma.reload', { dbgammaId, appName });
    assert.equal(reloaded.applicationStatus, 'done');
    assert.match(await query('SELECT v FROM kept'), /still here/);

    await berth.ok('dbgamma.remove', { dbgammaId });
    await until('the reactors to remove the service', async () => (await docker('service', 'ls', '-q', '--filter', `name=${appName}`)).trim() === '', 30_000);
    assert.match(await docker('volume', 'ls', '-q', '--filter', `name=${appName}-data`), new RegExp(`${appName}-data`), 'the data volume is kept');
  });

  it('fails a deploy whose image cannot run with the engine\'s reason, status error, nothing left running', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'broken' });
    const created = await berth.ok('dbgamma.create', {
      name: 'broken', appName: 'broken', projectId, containerImage: 'berth-test/no-such-image:1', ...databaseCredentials('dbgamma'),
    });
    const answer = await berth.call('dbgamma.deploy', { dbgammaId: created.dbgammaId });
    assert.equal(answer.status, 409);
    assert.match(answer.body.message, /cannot be pulled|not running/);
    assert.equal((await berth.ok('dbgamma.one', { dbgammaId: created.dbgammaId })).applicationStatus, 'error');
    const [failed] = await berth.ok('deployment.all', { databaseId: created.dbgammaId });
    assert.equal(failed.status, 'error');
    assert.match(failed.reason, /cannot be pulled|not running/);
    assert.equal((await docker('service', 'ls', '-q', '--filter', `name=${created.appName}`)).trim(), '');
    const stop = await berth.call('dbgamma.stop', { dbgammaId: created.dbgammaId });
    assert.equal(stop.status, 409);
  });
});
