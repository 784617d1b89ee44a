// A cancellation whose deployment does not end within BERTH_ACTION_WAIT_MS is answered as a start,
// stop or reload still waiting is: 409 CONFLICT "still in progress", in the spec's error shape, not
// a success with a record still `running`. It is recorded all the same: the deployment ends
// cancelled once its work stops.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DeploymentResult, DeploymentWork } from '@berth/reactors/deployer/work';
import { startReactors } from '@berth/reactors/role';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { until, workDouble } from '../support/deployer.ts';

const ACTION_WAIT_MS = 500;

describe('a cancellation its deployment does not heed within the bound', () => {
  let berth: TestBerth;
  let reactors: Awaited<ReturnType<typeof startReactors>>;
  /** Ends the work that runs: it does not stop on its cancellation (as a pull without an abort did). */
  const release = new Map<string, () => void>();
  before(async () => {
    berth = await startBerth({ config: { roles: ['projections', 'relay'], actionWaitMs: ACTION_WAIT_MS } });
    const { work } = workDouble(berth.berth.infrastructure.secrets);
    const run = (deployment: DeploymentWork) => new Promise<DeploymentResult>((_resolve, reject) => {
      release.set(deployment.deploymentId, () => reject(new Error('the engine answered at last')));
    });
    reactors = await startReactors(berth.berth.infrastructure, { ...work, run });
  });
  after(async () => {
    for (const end of release.values()) end();
    await reactors.stop();
    await berth.stop();
  });

  it('answers 409 CONFLICT naming the wait, then the deployment ends cancelled once its work stops', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'cancel timeout' });
    const { applicationId } = await berth.ok('application.create', { name: 'web', projectId });
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'example/web:1' });
    const { deploymentId } = await berth.ok('application.deploy', { applicationId });
    await until(berth, deploymentId, 'running');

    const answer = await berth.call('deployment.cancel', { deploymentId });
    assert.equal(answer.status, 409, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 'CONFLICT');
    assert.equal(answer.body.message, `The cancellation of deployment ${deploymentId} is still in progress after ${ACTION_WAIT_MS} ms`);
    assert.deepEqual(answer.body.issues, [{ message: answer.body.message }]);
    const asked = await berth.ok('deployment.one', { deploymentId });
    assert.equal(asked.status, 'running');
    assert.equal(asked.cancelRequested, true, 'the cancellation is recorded');

    release.get(deploymentId)!();
    assert.equal((await until(berth, deploymentId, 'cancelled')).reason, 'cancelled by request');
  });
});
