// A stop of Berth while a deployment waits for an earlier start of its service to be answered is
// prompt: the wait ends with the stop, and the deployment, which had not started, stays queued for
// the next start (nothing is left half done for recovery to finish). The deployer runs alone on a
// real Berth's stores, no service runtime beside it: the start is never answered, as when the bus
// hands the deployment out first and the runtime is slow to take the start.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Deployer } from '@berth/reactors/deployer/deployer';
import { reporter } from '@berth/reactors/runtime/report';
import { deploymentLogsOf } from '@berth/shared/adapters/deployment-logs';
import { startBerth } from '../support/berth.ts';
import { newImageApp, workDouble } from '../support/deployer.ts';
import { eventually } from '../support/engine.ts';

/** Well under the 30 s the wait for earlier actions is bounded by. */
const PROMPT_MS = 5_000;

test('a stop while a deployment waits for an earlier start to be answered is prompt and leaves the deployment queued', async () => {
  const berth = await startBerth();
  try {
    const infra = berth.berth.infrastructure;
    const { double, work } = workDouble(infra.secrets);
    const deployer = new Deployer({
      eventStore: infra.eventStore, readStore: infra.readStore, secrets: infra.secrets, clock: infra.clock,
      report: reporter(infra), logs: deploymentLogsOf(infra.config.dataDir), run: work.run, pruneImages: work.actions.pruneImages,
      composes: async () => null, databases: async () => null, concurrency: 1, keep: 5,
    });
    const applicationId = await newImageApp(berth, 'prompt-stop');
    await berth.call('application.start', { applicationId });
    const { deploymentId } = await berth.ok('application.deploy', { applicationId });
    deployer.queue.add({ deploymentId, serviceId: applicationId, cause: null });
    await eventually('the deployment to wait for the start', async () => deployer.queue.isRunning(deploymentId), 10_000);

    const stopping = Date.now();
    await deployer.stop();
    const took = Date.now() - stopping;
    assert.ok(took < PROMPT_MS, `the stop took ${took} ms`);
    assert.deepEqual(double.started, [], 'the deployment did not start');
    assert.equal((await berth.ok('deployment.one', { deploymentId })).status, 'queued');
  } finally {
    await berth.stop();
  }
});
