// A database's deploy and stop answer once the runtime has done it (behaviour.md), each about what
// it asked for:
// - a redeploy of a running database that the engine cannot start (its new host port held by
//   another process) fails early with the engine's own reason, and leaves the database serving its
//   data on the port it had: the previous service spec is restored, as an application's is. The
//   bounds are the defaults, so the failure must come from the engine's words, not from a timeout;
// - two deploys asked together both answer success once their own deployment is done, the second
//   not woken (and failed) by the end of the first;
// - when stop answers, no container of the database runs any more, as with an application's stop.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { client, DATABASE_IMAGE, docker, freePort, removeService } from '../support/database-services.ts';

const PASSWORD = 'Kept-Serving-Pass-3';
const redis = (port: number, command: string) =>
  client('dbepsilon', `REDISCLI_AUTH="$PW" redis-cli -h 127.0.0.1 -p ${port} ${command}`, { PW: PASSWORD }).then((out) => out.trim(), () => 'refused');

describe('database deploy and stop answer when done', { timeout: 600_000 }, () => {
  let berth: TestBerth;
  const appNames: string[] = [];
  before(async () => { berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000, taskStartTimeoutMs: 60_000 } }); });
  after(async () => {
    for (const appName of appNames) await removeService(appName);
    await berth.stop();
  });

  /** A dbepsilon of the test image, in a project of its own. */
  async function database(name: string) {
    const { projectId } = await berth.ok('project.create', { name });
    const created = await berth.ok('dbepsilon.create', {
      name, appName: name, projectId, containerImage: DATABASE_IMAGE.dbepsilon, databasePassword: PASSWORD,
    });
    appNames.push(created.appName);
    return { dbepsilonId: created.dbepsilonId as string, appName: created.appName as string };
  }

  it('fails a redeploy the engine cannot start with the engine\'s reason, early, and the database keeps serving its data on its previous port', async () => {
    const { dbepsilonId } = await database('kept');
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

  it('answers each of two deploys asked together with the outcome of the deployment it queued', async () => {
    const { dbepsilonId } = await database('own');
    const answers = await Promise.all([berth.call('dbepsilon.deploy', { dbepsilonId }), berth.call('dbepsilon.deploy', { dbepsilonId })]);
    for (const answer of answers) {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.applicationStatus, 'done');
    }
    // Both answered success, and neither before its deployment ended.
    const deployments = await berth.ok('deployment.all', { databaseId: dbepsilonId });
    assert.deepEqual(deployments.map((deployment: { status: string }) => deployment.status), ['done', 'done']);
  });

  it('answers stop idle only after the database\'s container is gone', async () => {
    const { dbepsilonId, appName } = await database('halt');
    await berth.ok('dbepsilon.deploy', { dbepsilonId });
    const running = async () => (await docker('ps', '-q', '--filter', `label=com.docker.swarm.service.name=${appName}`)).trim();
    assert.notEqual(await running(), '', 'deployed and running');
    const stopped = await berth.ok('dbepsilon.stop', { dbepsilonId });
    assert.equal(stopped.applicationStatus, 'idle');
    assert.equal(await running(), '', 'no container of the database runs when stop answers');
  });
});
