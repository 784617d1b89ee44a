// The deployment flow on the NATS JetStream bus: the relay and the reactors speak through a real
// nats-server, which restarts mid-run. No deployment is lost and none runs twice.
// (Engine work replaced by the double: this proves the bus path, not the engine.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startNats, type NatsServer } from '../support/nats.ts';
import { startDeployingBerth, until } from '../support/deployer.ts';

describe('deployments over NATS JetStream', () => {
  let nats: NatsServer;
  before(async () => { nats = await startNats(); });
  after(() => nats.stop());

  it('runs every deployment exactly once across a restart of nats-server', async () => {
    const running = await startDeployingBerth({ config: { natsUrl: nats.url } });
    try {
      const { berth, double } = running;
      double.autoFinish = true;
      const { projectId } = await berth.ok('project.create', { name: 'over nats' });
      const apps: string[] = [];
      for (const name of ['north', 'south']) {
        const { applicationId } = await berth.ok('application.create', { name, projectId });
        await berth.ok('application.saveContainerProvider', { applicationId, containerImage: `${name}:1` });
        apps.push(applicationId);
      }
      const ids: string[] = [];
      for (const applicationId of apps) ids.push((await berth.ok('application.deploy', { applicationId })).deploymentId);
      for (const id of ids) await until(berth, id, 'done');
      await nats.restart();
      // Queued while the bus was away or coming back: the relay publishes them when it can.
      for (const applicationId of apps) ids.push((await berth.ok('application.deploy', { applicationId })).deploymentId);
      for (const id of ids) await until(berth, id, 'done', 30_000);
      assert.deepEqual([...double.started].sort(), [...ids].sort(), 'each deployment ran exactly once');
      // Start/stop answered through the bus after the restart too.
      assert.equal((await berth.ok('application.stop', { applicationId: apps[0] })).applicationStatus, 'idle');
    } finally {
      await running.stop();
    }
  });
});
