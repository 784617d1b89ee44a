// A container engine that cannot be reached is an outage, not a refusal of the caller's request:
// every operation that asks it answers 503 UNAVAILABLE, saying to try again, and records nothing.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startBerth, startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';

describe('a container engine that cannot be reached', () => {
  let berth: TestBerth;
  before(async () => {
    const missingSocket = join(mkdtempSync(join(tmpdir(), 'berth-no-engine-')), 'docker.sock');
    berth = await startBerth({ env: { BERTH_ENGINE_SOCKET: missingSocket } });
  });
  after(() => berth.stop());

  const asks: Array<[string, Record<string, unknown>]> = [
    ['cluster.getNodes', {}],
    ['cluster.addWorker', {}],
    ['container.getContainers', {}],
    ['container.getConfig', { containerId: 'abc123' }],
    ['registry.testRegistry', { registryName: 'r', registryUrl: '127.0.0.1:5999', registryType: 'selfHosted', imagePrefix: null, username: 'u', password: 'p' }],
    ['registry.enableSelfHostedRegistry', { registryUrl: '127.0.0.1:5999', username: 'owner', password: 'a password' }],
  ];
  for (const [operation, input] of asks) {
    it(`answers ${operation} with 503 UNAVAILABLE and a retry-after, recording nothing`, async () => {
      const head = await berth.head();
      const answer = await berth.call(operation, input);
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assert.equal(answer.body.code, 'UNAVAILABLE');
      assert.match(answer.body.message, /container engine cannot be reached; try again/);
      assert.equal(answer.headers['retry-after'], '1');
      assert.equal(await berth.head(), head);
    });
  }
});

describe('a start, stop or reload while the container engine cannot be reached', () => {
  let berth: TestBerth;
  before(async () => {
    const missingSocket = join(mkdtempSync(join(tmpdir(), 'berth-no-engine-')), 'docker.sock');
    berth = await startBerthWithReactors({ env: { BERTH_ENGINE_SOCKET: missingSocket } });
  });
  after(() => berth.stop());

  it('answers 503 UNAVAILABLE with a retry-after, and leaves the service\'s status as it was', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'engine away' });
    const { applicationId } = await berth.ok('application.create', { name: 'web', projectId });
    const { dbgammaId } = await berth.ok('dbgamma.create', { name: 'db', appName: 'db', projectId, ...databaseCredentials('dbgamma') });
    const calls: Array<[string, Record<string, unknown>, string]> = [
      ['application.stop', { applicationId }, 'application.one'], ['application.start', { applicationId }, 'application.one'],
      ['dbgamma.stop', { dbgammaId }, 'dbgamma.one'],
    ];
    for (const [operation, input, read] of calls) {
      const status = (await berth.ok(read, input)).applicationStatus;
      const answer = await berth.call(operation, input);
      assert.equal(answer.status, 503, `${operation}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.code, 'UNAVAILABLE');
      assert.match(answer.body.message, /was not done: The container engine cannot be reached.*; try again shortly$/);
      assert.equal(answer.headers['retry-after'], '1');
      assert.equal((await berth.ok(read, input)).applicationStatus, status, `${operation} changed the status`);
    }
  });

  it('answers a database deploy that met it with 503 UNAVAILABLE and a retry-after', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'engine away for a deploy' });
    const { dbgammaId } = await berth.ok('dbgamma.create', { name: 'db', appName: 'deployed-db', projectId, ...databaseCredentials('dbgamma') });
    const answer = await berth.call('dbgamma.deploy', { dbgammaId });
    assert.equal(answer.status, 503, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 'UNAVAILABLE');
    assert.match(answer.body.message, /The deploy of deployed-db.* failed: .*container engine cannot be reached.*; try again shortly$/);
    assert.equal(answer.headers['retry-after'], '1');
  });
});
