// A crash between a deployment's end and its service's status change, when that deployment had
// started behind another one (its start moved nothing: the service was `running` already): the
// recovery moves the service as the deployment that ended last says, not as the first one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startReactors } from '@berth/reactors/role';
import { reporter } from '@berth/reactors/runtime/report';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { deploymentAggregate, type DeploymentCommand } from '@berth/shared/domain/deployment/deployment';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { workDouble } from '../support/deployer.ts';
import { eventually } from '../support/engine.ts';

describe('recovery of a service left running by deployments queued back to back', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth({ config: { roles: ['projections', 'relay'], actionWaitMs: 3000 } }); });
  after(() => berth.stop());

  const status = async (applicationId: string) => (await berth.ok('application.one', { applicationId })).applicationStatus as string;

  it('follows the end of the deployment that ended last, which failed', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'crashes-queued' });
    const { applicationId } = await berth.ok('application.create', { name: 'queued-crash', projectId });
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'example/web:1' });
    const first = (await berth.ok('application.deploy', { applicationId })).deploymentId as string;
    const second = (await berth.ok('application.deploy', { applicationId })).deploymentId as string;
    // What the deployer appended before the crash: the first ran and ended, its end held as the
    // second waited; the second started from what the first left, and failed.
    const report = reporter(berth.berth.infrastructure);
    const at = () => new Date().toISOString();
    const deployment = (deploymentId: string, command: DeploymentCommand) => report(deploymentAggregate, deploymentId, command, null);
    await deployment(first, { type: 'StartDeployment', data: { deploymentId: first, at: at(), statusBefore: 'idle' } });
    await report(applicationAggregate, applicationId, { type: 'FollowDeployment', data: { applicationId, deploymentId: first, step: 'started', statusBefore: 'idle' } }, null);
    await deployment(first, { type: 'FinishDeployment', data: { deploymentId: first, at: at(), image: 'example/web:1', revision: null } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await deployment(second, { type: 'StartDeployment', data: { deploymentId: second, at: at(), statusBefore: 'done' } });
    await deployment(second, { type: 'FailDeployment', data: { deploymentId: second, at: at(), reason: 'the build broke' } });
    assert.equal(await status(applicationId), 'running');

    const { work } = workDouble(berth.berth.infrastructure.secrets);
    const reactors = await startReactors(berth.berth.infrastructure, work);
    try {
      await eventually('the service to follow its last ended deployment', async () => (await status(applicationId)) !== 'running');
      assert.equal(await status(applicationId), 'error');
    } finally {
      await reactors.stop();
    }
  });
});
