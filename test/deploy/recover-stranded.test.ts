// A crash between a deployment's end and its service's status change (two appends) left the
// service `running` for good: the reactors' recovery moves it on as the deployment's end says,
// and leaves alone a service someone marked `running` by hand.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startReactors } from '@berth/reactors/role';
import { reporter } from '@berth/reactors/runtime/report';
import { applicationAggregate, type ApplicationCommand } from '@berth/shared/domain/application/application';
import { deploymentAggregate, type DeploymentCommand } from '@berth/shared/domain/deployment/deployment';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { workDouble } from '../support/deployer.ts';
import { eventually } from '../support/engine.ts';

describe('recovery of a service its ended deployment left running', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth({ config: { roles: ['projections', 'relay'], actionWaitMs: 3000 } }); });
  after(() => berth.stop());

  const status = async (applicationId: string) => (await berth.ok('application.one', { applicationId })).applicationStatus as string;

  it('moves the service to done after a restart, and leaves one marked running by hand', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'crashes' });
    const create = async (name: string) => {
      const { applicationId } = await berth.ok('application.create', { name, projectId });
      await berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'example/web:1' });
      return applicationId as string;
    };
    const [crashed, marked] = [await create('crashed'), await create('marked')];
    const { deploymentId } = await berth.ok('application.deploy', { applicationId: crashed });
    // What the deployer appended before the crash: the start, the service's move to running, the end.
    const report = reporter(berth.berth.infrastructure);
    const at = new Date().toISOString();
    const deployment = (command: DeploymentCommand) => report(deploymentAggregate, deploymentId, command, null);
    await deployment({ type: 'StartDeployment', data: { deploymentId, at, statusBefore: 'idle' } });
    const follow: ApplicationCommand = { type: 'FollowDeployment', data: { applicationId: crashed, deploymentId, step: 'started', statusBefore: 'idle' } };
    await report(applicationAggregate, crashed, follow, null);
    await deployment({ type: 'FinishDeployment', data: { deploymentId, at, image: 'example/web:1', revision: null } });
    await berth.ok('application.markRunning', { applicationId: marked });
    assert.equal(await status(crashed), 'running');

    const { work } = workDouble(berth.berth.infrastructure.secrets);
    const reactors = await startReactors(berth.berth.infrastructure, work);
    try {
      await eventually('the crashed service to follow its finished deployment', async () => (await status(crashed)) === 'done');
      assert.equal(await status(marked), 'running', 'a status set by hand is not a deployment\'s to change');
    } finally {
      await reactors.stop();
    }
  });
});
