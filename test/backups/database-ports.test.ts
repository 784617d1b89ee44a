// A running database's published port and its engine profile, on the real engine: a new external
// port is published at once (the service redeployed), or at the next start of a stopped one, a cleared one is withdrawn, a port another
// process holds fails within the task-start bound with the engine's reason, an operator's profile
// (another image behind the neutral name, another internal port and server arguments) is what runs,
// and with BERTH_REMOVE_DATABASE_VOLUMES=on a removed database takes its data volume along.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { client, DATABASE_IMAGE, docker, freePort, removeService, until } from '../support/database-services.ts';

const PASSWORD = 'Port-Moves-Pass-7';
const ping = (port: number) => client('dbepsilon', `REDISCLI_AUTH="$PW" redis-cli -h 127.0.0.1 -p ${port} ping`, { PW: PASSWORD })
  .then((out) => out.trim(), () => 'refused');

describe('database ports and profiles on the engine', { timeout: 300_000 }, () => {
  let berth: TestBerth;
  let projectId = '';
  const services: string[] = [];
  const create = async (name: string, containerImage: string) => {
    const created = await berth.ok('dbepsilon.create', { name, appName: name, projectId, containerImage, databasePassword: PASSWORD });
    services.push(created.appName);
    return created as { dbepsilonId: string; appName: string };
  };

  before(async () => {
    const profiles = join(tmpdir(), `berth-profiles-${process.pid}.json`);
    // The key-value kind on another port, with the server's arguments and readiness check to match.
    writeFileSync(profiles, JSON.stringify({
      dbepsilon: {
        image: DATABASE_IMAGE.dbepsilon,
        internalPort: 6380,
        args: ['sh', '-c', 'exec redis-server --port 6380 --dir /data --requirepass "$REDIS_PASSWORD"'],
        ready: ['sh', '-c', 'REDISCLI_AUTH="$REDIS_PASSWORD" redis-cli -p 6380 ping | grep -q PONG'],
      },
    }));
    berth = await startBerthWithReactors({
      config: { actionWaitMs: 180_000, taskStartTimeoutMs: 8000 },
      env: { BERTH_DATABASE_PROFILES: profiles, BERTH_REMOVE_DATABASE_VOLUMES: 'on' },
    });
    ({ projectId } = await berth.ok('project.create', { name: 'ports' }));
  });
  after(async () => {
    for (const name of services) await removeService(name);
    await berth.stop();
  });

  it('runs the operator\'s profile behind the neutral image name, and moves a running database to a new port at once (saveExternalPort or update)', async () => {
    const db = await create('ports-kv', 'dbepsilon:8');
    const [first, second] = [await freePort(), await freePort()];
    await berth.ok('dbepsilon.saveExternalPort', { dbepsilonId: db.dbepsilonId, externalPort: first });
    assert.equal((await berth.ok('dbepsilon.deploy', { dbepsilonId: db.dbepsilonId })).applicationStatus, 'done');
    assert.equal(await ping(first), 'PONG', 'the configured image answers on the external port, through internal port 6380');

    const moved = await berth.ok('dbepsilon.saveExternalPort', { dbepsilonId: db.dbepsilonId, externalPort: second });
    assert.equal(moved.applicationStatus, 'done');
    assert.equal(moved.externalPort, second);
    assert.equal(await ping(second), 'PONG');
    assert.equal(await ping(first), 'refused', 'the old port is no longer published');

    // The same through update, which any field may come with.
    const third = await freePort();
    const updated = await berth.ok('dbepsilon.update', { dbepsilonId: db.dbepsilonId, externalPort: third });
    assert.equal(updated.externalPort, third);
    assert.equal(await ping(third), 'PONG', 'update moved the running database to its new port at once');
    assert.equal(await ping(second), 'refused');

    await berth.ok('dbepsilon.saveExternalPort', { dbepsilonId: db.dbepsilonId, externalPort: null });
    assert.equal(await ping(third), 'refused', 'a cleared port is withdrawn');
  });

  it('starts a stopped database on the port saved while it was stopped, not the one it had', async () => {
    const db = await create('ports-stopped', 'dbepsilon:8');
    const [first, second] = [await freePort(), await freePort()];
    await berth.ok('dbepsilon.saveExternalPort', { dbepsilonId: db.dbepsilonId, externalPort: first });
    await berth.ok('dbepsilon.deploy', { dbepsilonId: db.dbepsilonId });
    assert.equal((await berth.ok('dbepsilon.stop', { dbepsilonId: db.dbepsilonId })).applicationStatus, 'idle');
    assert.equal((await berth.ok('dbepsilon.saveExternalPort', { dbepsilonId: db.dbepsilonId, externalPort: second })).applicationStatus, 'idle');
    assert.equal((await berth.ok('dbepsilon.start', { dbepsilonId: db.dbepsilonId })).applicationStatus, 'done');
    assert.equal(await ping(second), 'PONG', 'published on the port saved while stopped');
    // The old port, free for others now, is not published again (asked of the engine: another test's
    // database may hold that port by now, so a ping there proves nothing).
    const published = JSON.parse(await docker('service', 'inspect', db.appName, '--format', '{{json .Endpoint.Ports}}')) as Array<{ PublishedPort: number }>;
    assert.deepEqual(published.map((port) => port.PublishedPort), [second]);
  });

  it('fails a move to a port another process holds within the task-start bound, with the engine\'s reason', async () => {
    const db = await create('ports-taken', DATABASE_IMAGE.dbepsilon);
    await berth.ok('dbepsilon.deploy', { dbepsilonId: db.dbepsilonId });
    const taken = await freePort();
    const holder: Server = await new Promise((resolve) => { const server = createServer().listen(taken, '0.0.0.0', () => resolve(server)); });
    try {
      const started = Date.now();
      const answer = await berth.call('dbepsilon.saveExternalPort', { dbepsilonId: db.dbepsilonId, externalPort: taken });
      assert.equal(answer.status, 409, JSON.stringify(answer.body));
      assert.match(answer.body.message, new RegExp(`host port ${taken} is taken on the node by a process the swarm does not run: free it, or publish another port`));
      assert.ok(Date.now() - started < 60_000, 'bounded by the task-start timeout, not left pending');
      assert.equal((await berth.ok('dbepsilon.one', { dbepsilonId: db.dbepsilonId })).applicationStatus, 'error');
    } finally {
      holder.close();
    }
  });

  /** A database deployed on a port, whose move to a port another process holds failed (409): the deployer put it back. */
  async function failedMove(name: string) {
    const db = await create(name, DATABASE_IMAGE.dbepsilon);
    const [published, taken] = [await freePort(), await freePort()];
    await berth.ok('dbepsilon.saveExternalPort', { dbepsilonId: db.dbepsilonId, externalPort: published });
    await berth.ok('dbepsilon.deploy', { dbepsilonId: db.dbepsilonId });
    const holder: Server = await new Promise((resolve) => { const server = createServer().listen(taken, '0.0.0.0', () => resolve(server)); });
    try {
      assert.equal((await berth.call('dbepsilon.saveExternalPort', { dbepsilonId: db.dbepsilonId, externalPort: taken })).status, 409);
    } finally {
      holder.close();
    }
    return { db, published, taken };
  }

  it('keeps a database whose move to a taken port failed on the port it still publishes: in its record, and held from other services', async () => {
    const { db, published, taken } = await failedMove('ports-kept');
    const record = await berth.ok('dbepsilon.one', { dbepsilonId: db.dbepsilonId });
    assert.deepEqual([record.externalPort, record.applicationStatus], [published, 'error']);
    const engine = JSON.parse(await docker('service', 'inspect', db.appName, '--format', '{{json .Endpoint.Ports}}')) as Array<{ PublishedPort: number }>;
    assert.deepEqual(engine.map((port) => port.PublishedPort), [published], 'the deployer put the service back on its port');
    const other = await create('ports-other', DATABASE_IMAGE.dbepsilon);
    await berth.refused('dbepsilon.saveExternalPort', { dbepsilonId: other.dbepsilonId, externalPort: published }, 409, 'externalPort');
    assert.equal((await berth.ok('dbepsilon.saveExternalPort', { dbepsilonId: other.dbepsilonId, externalPort: taken })).externalPort, taken,
      'the port of the failed move is free again');
  });

  it('moves a database in error that still runs (a failed move put it back) at once, as a running one: the engine publishes the port its record says', async () => {
    const { db } = await failedMove('ports-error');
    const next = await freePort();
    assert.equal((await berth.ok('dbepsilon.one', { dbepsilonId: db.dbepsilonId })).applicationStatus, 'error');
    const moved = await berth.ok('dbepsilon.saveExternalPort', { dbepsilonId: db.dbepsilonId, externalPort: next });
    assert.deepEqual([moved.externalPort, moved.applicationStatus], [next, 'done']);
    const engine = JSON.parse(await docker('service', 'inspect', db.appName, '--format', '{{json .Endpoint.Ports}}')) as Array<{ PublishedPort: number }>;
    assert.deepEqual(engine.map((port) => port.PublishedPort), [next], 'the engine publishes the port the record says');
    assert.equal(await ping(next), 'PONG');
  });

  it('removes the data volume with the database when the operator turned that on', async () => {
    const db = await create('ports-gone', DATABASE_IMAGE.dbepsilon);
    await berth.ok('dbepsilon.deploy', { dbepsilonId: db.dbepsilonId });
    assert.match(await docker('volume', 'ls', '-q', '--filter', `name=${db.appName}-data`), new RegExp(`${db.appName}-data`));
    await berth.ok('dbepsilon.remove', { dbepsilonId: db.dbepsilonId });
    assert.equal((await berth.call('dbepsilon.one', { dbepsilonId: db.dbepsilonId })).status, 404);
    // The reactors remove the service, then the volume once its last container let go of it.
    await until('the reactors to remove the data volume', async () =>
      (await docker('volume', 'ls', '-q', '--filter', `name=${db.appName}-data`)).trim() === '', 60_000);
  });
});
