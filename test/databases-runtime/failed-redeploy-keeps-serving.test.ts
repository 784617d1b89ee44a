// A redeploy of a running database that the engine cannot start (its new host port held by another
// process) fails early with the engine's own reason, and leaves the database serving its data on
// the port it had: the previous service spec is restored, as an application's is. The bounds are
// the defaults, so the failure must come from the engine's words, not from a timeout.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { client, DATABASE_IMAGE, freePort, removeService } from '../support/database-services.ts';

const PASSWORD = 'Kept-Serving-Pass-3';
const redis = (port: number, command: string) =>
  client('dbepsilon', `REDISCLI_AUTH="$PW" redis-cli -h 127.0.0.1 -p ${port} ${command}`, { PW: PASSWORD }).then((out) => out.trim(), () => 'refused');

describe('a failed database redeploy', { timeout: 300_000 }, () => {
  let berth: TestBerth;
  let appName = '';
  before(async () => { berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000, taskStartTimeoutMs: 60_000 } }); });
  after(async () => {
    if (appName) await removeService(appName);
    await berth.stop();
  });

  it('answers the engine\'s reason early, and the database keeps serving its data on its previous port', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'failed-redeploy' });
    const created = await berth.ok('dbepsilon.create', {
      name: 'kept', appName: 'kept', projectId, containerImage: DATABASE_IMAGE.dbepsilon, databasePassword: PASSWORD,
    });
    const dbepsilonId = created.dbepsilonId;
    appName = created.appName;
    const port = await freePort();
    await berth.ok('dbepsilon.saveExternalPort', { dbepsilonId, externalPort: port });
    assert.equal((await berth.ok('dbepsilon.deploy', { dbepsilonId })).applicationStatus, 'done');
    assert.equal(await redis(port, 'set kept still-here'), 'OK');

    const taken = await freePort();
    const holder: Server = await new Promise((resolve) => { const server = createServer().listen(taken, '0.0.0.0', () => resolve(server)); });
    try {
      const asked = Date.now();
      const answer = await berth.call('dbepsilon.saveExternalPort', { dbepsilonId, externalPort: taken });
      const waited = Date.now() - asked;
      assert.equal(answer.status, 409, JSON.stringify(answer.body));
      assert.match(answer.body.message, /address already in use/, 'the engine\'s reason, not "still in progress" nor "no task scheduled"');
      assert.ok(waited < 40_000, `failed once the engine rejected the task, not at the 60 s bound (${waited} ms)`);
    } finally {
      holder.close();
    }

    // Still serving, with its data, on the port it had when the answer came.
    assert.equal(await redis(port, 'get kept'), 'still-here');

    const [deployment] = await berth.ok('deployment.all', { databaseId: dbepsilonId });
    assert.equal(deployment.status, 'error');
    assert.match(deployment.reason, /address already in use/);
    const { log } = await berth.ok('deployment.logs', { deploymentId: deployment.deploymentId });
    assert.match(log, /address already in use/);
    assert.match(log, /Restored the previous version/);
  });
});
