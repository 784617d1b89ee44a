// A database removed while its deploy is waited on: the removal's reactor cancels the deployment
// and prunes its record, possibly before the waiting deploy reads it. The deploy answers 404
// naming the database, not a 500. Here the log is given what that reactor appends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deploymentAggregate } from '@berth/shared/domain/deployment/deployment';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { pathsOf, startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { eventually } from '../support/engine.ts';
import { executeInLog } from '../support/log.ts';

describe('a database deploy waited on while the database is removed', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth({ config: { actionWaitMs: 10_000 } }); });
  after(() => berth.stop());

  it('answers 404 naming dbgammaId once its deployment record is pruned with the database', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'removed-while-deploying' });
    const { dbgammaId } = await berth.ok('dbgamma.create', { name: 'db', appName: 'db', projectId, ...databaseCredentials('dbgamma') });
    const deploying = berth.call('dbgamma.deploy', { dbgammaId });
    const [queued] = await eventually('the deployment to be queued', async () => {
      const found = (await berth.berth.infrastructure.readStore.find('deployment', 'databaseId', dbgammaId));
      return found.length > 0 ? found : null;
    });
    const deploymentId = String(queued!.deploymentId);
    await berth.ok('dbgamma.remove', { dbgammaId });
    const deployment = deploymentAggregate as unknown as AnyAggregate;
    await executeInLog(berth, deployment, deploymentId, { type: 'CancelDeployment', data: { deploymentId, at: new Date().toISOString() } });
    await executeInLog(berth, deployment, deploymentId, { type: 'PruneDeployment', data: { deploymentId } });
    const answer = await deploying;
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.deepEqual(pathsOf(answer.body), ['dbgammaId']);
  });
});
