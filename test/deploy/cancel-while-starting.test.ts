// A cancellation asked while the deployer reports the start of a deployment (moving its service to
// `running`) is not lost: the deployment ends `cancelled` and its work never runs on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Deployer } from '@berth/reactors/deployer/deployer';
import { reporter } from '@berth/reactors/runtime/report';
import { deploymentLogsOf } from '@berth/shared/adapters/deployment-logs';
import type { RecordedEvent } from '@berth/shared/events/event';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { workDouble } from '../support/deployer.ts';
import { eventually } from '../support/engine.ts';

describe('a cancellation during the start of a deployment', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth({ config: { roles: ['projections'], actionWaitMs: 1500 } }); });
  after(() => berth.stop());

  it('cancels the deployment, whose work does not run on', async () => {
    const infra = berth.berth.infrastructure;
    const { double, work } = workDouble(infra.secrets);
    const report = reporter(infra);
    let following = false;
    // The service's move to `running` takes a while: the window a cancellation may fall in.
    const slowFollow: typeof report = async (aggregate, id, command, cause) => {
      if ((command as { type: string }).type === 'FollowDeployment' && !following) {
        following = true;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      return report(aggregate, id, command, cause);
    };
    const deployer = new Deployer({
      eventStore: infra.eventStore, readStore: infra.readStore, secrets: infra.secrets, clock: infra.clock, report: slowFollow,
      logs: deploymentLogsOf(infra.config.dataDir), run: work.run, pruneImages: work.actions.pruneImages,
      composes: async () => null, databases: async () => null, concurrency: 2, keep: 5,
    });
    const reactor = deployer.reactor();
    const { projectId } = await berth.ok('project.create', { name: 'cancels' });
    const { applicationId } = await berth.ok('application.create', { name: 'cancelled-early', projectId });
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'example/web:1' });
    const { deploymentId } = await berth.ok('application.deploy', { applicationId });
    const events = async (type: string): Promise<RecordedEvent[]> =>
      (await infra.eventStore.readStream(`deployment-${deploymentId}`)).events.filter((event) => event.type === type);
    // The bus delivers what the log holds, in order: the queued deployment, then the cancellation.
    await reactor.handle((await events('DeploymentQueued'))[0]!);
    await eventually('the start', async () => (await events('DeploymentStarted')).length === 1);
    const cancelled = berth.call('deployment.cancel', { deploymentId });
    await eventually('the cancellation in the log', async () => (await events('DeploymentCancellationRequested')).length === 1);
    await reactor.handle((await events('DeploymentCancellationRequested'))[0]!);
    await cancelled;
    const ended = await eventually('the deployment to end', async () => {
      const found = await berth.ok('deployment.one', { deploymentId });
      return ['done', 'error', 'cancelled'].includes(found.status) ? found : null;
    });
    assert.equal(ended.status, 'cancelled');
    assert.equal(double.running.has(deploymentId), false, 'the work does not run on');
    await deployer.stop();
  });
});
