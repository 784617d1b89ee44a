// The status a user sees while deployments of one service are queued back to back: `running` from
// the first's start to the last's end, never `done` (or `error`) for a moment in between, and,
// when the ones behind are cancelled, what the last one that ran left, never `running` for good.
// Read from the service's history, so a change that lasts a moment is seen too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streamName } from '@berth/shared/events/event';
import { startBerth } from '../support/berth.ts';
import { newImageApp, startDeployingBerth, until, type Gate } from '../support/deployer.ts';
import { eventually } from '../support/engine.ts';

type Running = Awaited<ReturnType<typeof startDeployingBerth>>;

describe('the status of a service deployed back to back', () => {
  let it_: Running;
  // One slot: another service's deployment can hold the second one in the queue.
  before(async () => { it_ = await startDeployingBerth({ config: { deployConcurrency: 1 } }); });
  after(() => it_.stop());

  const newApp = (name: string) => newImageApp(it_.berth, name);
  const deploy = async (applicationId: string) => (await it_.berth.ok('application.deploy', { applicationId })).deploymentId as string;
  /** Every status the application's history gave it, in order. */
  const statuses = async (applicationId: string) => (await it_.berth.berth.infrastructure.eventStore.readStream(streamName('application', applicationId)))
    .events.map((event) => (event.data as { applicationStatus?: string }).applicationStatus).filter((status) => status !== undefined);
  const statusIs = (applicationId: string, status: string) => eventually(`application status ${status}`, async () =>
    (await it_.berth.ok('application.one', { applicationId })).applicationStatus === status);

  // However the first ends, the status stays running until the second's end, which it then shows.
  for (const [behaviour, appName, end] of [
    ['stays running from the first deployment\'s start to the second\'s end, never done in between', 'back-to-back', (gate: Gate) => gate.open()],
    ['stays running after a failed deployment with another queued behind it, then shows how the last one ended', 'failed-then-queued', (gate: Gate) => gate.fail('the build broke')],
  ] as const) {
    it(behaviour, async () => {
      const applicationId = await newApp(appName);
      const first = await deploy(applicationId);
      const gate = await it_.double.runs(first);
      const second = await deploy(applicationId);
      end(gate);
      (await it_.double.runs(second)).open();
      await until(it_.berth, second, 'done');
      await statusIs(applicationId, 'done');
      assert.deepEqual(await statuses(applicationId), ['idle', 'running', 'done']);
    });
  }

  it('shows what the first deployment left when the one queued behind it is cancelled before it starts', async () => {
    const applicationId = await newApp('behind-cancelled');
    const other = await newApp('holds-the-slot');
    const first = await deploy(applicationId);
    const gate = await it_.double.runs(first);
    const otherDeployment = await deploy(other);
    const second = await deploy(applicationId);
    gate.open();
    // The other service's deployment took the only slot: the second waits behind it.
    const otherGate = await it_.double.runs(otherDeployment);
    await it_.berth.ok('deployment.cancel', { deploymentId: second });
    await until(it_.berth, second, 'cancelled');
    await statusIs(applicationId, 'done');
    otherGate.open();
    assert.deepEqual(await statuses(applicationId), ['idle', 'running', 'done']);
  });

  it('gives back what the first deployment left when the second is cancelled while it runs', async () => {
    const applicationId = await newApp('second-cancelled');
    const first = await deploy(applicationId);
    const gate = await it_.double.runs(first);
    const second = await deploy(applicationId);
    gate.fail('the build broke');
    await it_.double.runs(second);
    await it_.berth.ok('deployment.cancel', { deploymentId: second });
    await until(it_.berth, second, 'cancelled');
    await statusIs(applicationId, 'error');
  });

  it('settles the first deployment\'s status before a stop asked while the second waited, which then shows idle', async () => {
    const applicationId = await newApp('stopped-between');
    const other = await newApp('holds-the-slot-2');
    const first = await deploy(applicationId);
    const gate = await it_.double.runs(first);
    const otherDeployment = await deploy(other);
    await deploy(applicationId);
    gate.open();
    const otherGate = await it_.double.runs(otherDeployment);
    await it_.berth.ok('application.stop', { applicationId });
    await statusIs(applicationId, 'idle');
    otherGate.open();
    const seen = await statuses(applicationId);
    assert.equal(seen.at(-1), 'idle', JSON.stringify(seen));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await it_.berth.ok('application.one', { applicationId })).applicationStatus, 'idle');
  });
});

describe('the status of a service whose next deployment waits when Berth stops', () => {
  it('shows what the ended deployment left while Berth is down, and the waiting one runs after the restart', async () => {
    let it_ = await startDeployingBerth({ config: { deployConcurrency: 1 } });
    const { dataDir } = it_.berth;
    try {
      const applicationId = await newImageApp(it_.berth, 'waits-at-stop');
      const other = await newImageApp(it_.berth, 'holds-the-slot-3');
      const first = (await it_.berth.ok('application.deploy', { applicationId })).deploymentId;
      const gate = await it_.double.runs(first);
      const otherDeployment = (await it_.berth.ok('application.deploy', { applicationId: other })).deploymentId;
      const second = (await it_.berth.ok('application.deploy', { applicationId })).deploymentId;
      gate.open();
      await it_.double.runs(otherDeployment);
      await it_.stop({ keepData: true });

      // Berth without its reactors: what a user sees while nothing deploys.
      const down = await startBerth({ dataDir });
      const seen = (await down.ok('application.one', { applicationId })).applicationStatus;
      await down.stop({ keepData: true });
      assert.equal(seen, 'done');

      it_ = await startDeployingBerth({ dataDir, config: { deployConcurrency: 1 } });
      it_.double.autoFinish = true;
      await until(it_.berth, second, 'done');
      await eventually('application status done', async () => (await it_.berth.ok('application.one', { applicationId })).applicationStatus === 'done');
    } finally {
      await it_.stop();
    }
  });
});
