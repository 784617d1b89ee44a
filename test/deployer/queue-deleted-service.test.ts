// A deploy whose request raced the application's removal (queued once the removal had pruned the
// service's deployments) fails, as its service is gone, and leaves no record nor log behind: the
// removal's pruning came before it, and nothing else would ever remove it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reporter } from '@berth/reactors/runtime/report';
import { newId } from '@berth/shared/ids';
import { deploymentAggregate, newDeployment } from '@berth/shared/domain/deployment/deployment';
import { startDeployingBerth } from '../support/deployer.ts';
import { deploymentRecordsOf } from '../support/deployments.ts';
import { eventually } from '../support/engine.ts';

type Running = Awaited<ReturnType<typeof startDeployingBerth>>;

describe('a deployment of a deleted application', () => {
  let it_: Running;
  before(async () => { it_ = await startDeployingBerth(); });
  after(() => it_.stop());

  it('is pruned with its log once it failed for its deleted service', async () => {
    const { projectId } = await it_.berth.ok('project.create', { name: 'raced' });
    const { applicationId } = await it_.berth.ok('application.create', { name: 'raced-removal', projectId });
    await it_.berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'raced:1' });
    await it_.berth.ok('application.delete', { applicationId });
    const infra = it_.berth.berth.infrastructure;
    // What the deploy request appends when its check of the application ran just before the removal.
    const deploymentId = newId();
    await reporter(infra)(deploymentAggregate, deploymentId, { type: 'QueueDeployment', data: newDeployment({
      deploymentId, applicationId, composeId: null, kind: 'deploy', title: 'Deploy', trigger: 'account', accountId: null,
      image: null, rollbackOf: null, createdAt: infra.clock.now().toISOString(),
    }) }, null);
    await eventually('the deployment to fail for its deleted service', async () =>
      (await infra.eventStore.readStream(`deployment-${deploymentId}`)).events.some((event) => event.type === 'DeploymentFailed'));
    const left = await eventually('the failed deployment to be pruned', async () =>
      (await deploymentRecordsOf(it_.berth, 'applicationId', applicationId)).length === 0 ? [] : null, 5000)
      .catch(async () => deploymentRecordsOf(it_.berth, 'applicationId', applicationId));
    assert.deepEqual(left.map((doc) => `${String(doc.status)}: ${String(doc.reason)}`), []);
    assert.equal((await it_.berth.call('deployment.one', { deploymentId })).status, 404);
  });
});
