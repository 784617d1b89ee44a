// BERTH_KEEP_DEPLOYMENTS keeps the deployments that ended last: a deploy that finishes after the
// ones queued behind it were cancelled (cleanQueues, deployment.cancel) is the service's current
// version and a rollback target, so its record and log stay; the older cancelled ones go.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newImageApp, startDeployingBerth, until } from '../support/deployer.ts';

type Running = Awaited<ReturnType<typeof startDeployingBerth>>;

describe('deployment records kept per service', () => {
  let it_: Running;
  before(async () => { it_ = await startDeployingBerth({ config: { deployConcurrency: 2, keepDeployments: 2 } }); });
  after(() => it_.stop());

  const newApp = (name: string) => newImageApp(it_.berth, name);
  const deploy = async (applicationId: string) => (await it_.berth.ok('application.deploy', { applicationId })).deploymentId as string;
  const kept = async (applicationId: string, count: number) => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const ids = (await it_.berth.ok('deployment.all', { applicationId })).map((d: { deploymentId: string }) => d.deploymentId);
      if (ids.length === count || Date.now() > deadline) return ids as string[];
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('keeps the running deploy that finishes after cleanQueues cancelled the ones queued behind it, with its log', async () => {
    const applicationId = await newApp('kept-after-clean');
    const [running, second, third] = [await deploy(applicationId), await deploy(applicationId), await deploy(applicationId)];
    const gate = await it_.double.runs(running);
    await it_.berth.ok('application.cleanQueues', { applicationId });
    await until(it_.berth, third, 'cancelled');
    gate.open();
    await until(it_.berth, running, 'done');
    const ids = await kept(applicationId, 2);
    assert.ok(ids.includes(running), `the deployment that just finished was pruned: kept ${JSON.stringify(ids)} of ${JSON.stringify([running, second, third])}`);
    assert.match((await it_.berth.ok('deployment.logs', { deploymentId: running })).log, /Done: /);
  });

  it('keeps the last ended ones when a cancelled queued deploy is newer than a finished one', async () => {
    const applicationId = await newApp('kept-after-cancel');
    const first = await deploy(applicationId);
    const gate = await it_.double.runs(first);
    const queued = await deploy(applicationId);
    await it_.berth.ok('deployment.cancel', { deploymentId: queued });
    gate.open();
    await until(it_.berth, first, 'done');
    const next = await deploy(applicationId);
    (await it_.double.runs(next)).open();
    await until(it_.berth, next, 'done');
    assert.deepEqual((await kept(applicationId, 2)).sort(), [first, next].sort());
  });
});
