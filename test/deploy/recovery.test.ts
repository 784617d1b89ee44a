// What a restart finds: a deployment that was running when Berth died ends in error with reason
// "interrupted" and its service status follows; the queued ones run after the restart, in order.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import { deploymentAggregate } from '@berth/shared/domain/deployment/deployment';
import { execute } from '@berth/shared/runtime/execute';
import { startDeployingBerth, until } from '../support/deployer.ts';

describe('deployments across a restart (engine work replaced by a double)', () => {
  it('fails the interrupted deployment, then runs the queued ones in order; nothing stays running', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-recovery-'));
    try {
      const first = await startDeployingBerth({ dataDir });
      const { projectId } = await first.berth.ok('project.create', { name: 'crash' });
      const { applicationId } = await first.berth.ok('application.create', { name: 'crashing', projectId });
      await first.berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'crash:1' });
      const running = (await first.berth.ok('application.deploy', { applicationId })).deploymentId;
      const queued = [(await first.berth.ok('application.deploy', { applicationId })).deploymentId, (await first.berth.ok('application.deploy', { applicationId })).deploymentId];
      await first.double.runs(running);
      await until(first.berth, running, 'running');
      // The process dies: its reactors never report again (their work hangs), nothing is stopped cleanly.
      await first.berth.stop({ keepData: true });

      const second = await startDeployingBerth({ dataDir });
      const interrupted = await until(second.berth, running, 'error');
      assert.equal(interrupted.reason, 'interrupted');
      const { log } = await second.berth.ok('deployment.logs', { deploymentId: running });
      assert.match(log, /interrupted/);
      const deadline = Date.now() + 5000;
      let status = '';
      while (Date.now() < deadline && (status = (await second.berth.ok('application.one', { applicationId })).applicationStatus) !== 'running') {
        await new Promise((r) => setTimeout(r, 20));
      }
      // The next queued deployment has started: the service runs it.
      assert.equal(status, 'running', 'the service runs the next queued deployment');
      (await second.double.runs(queued[0]!)).open();
      (await second.double.runs(queued[1]!)).open();
      for (const id of queued) await until(second.berth, id, 'done');
      assert.deepEqual(second.double.started, queued);
      const all = await second.berth.ok('deployment.all', { applicationId });
      assert.ok(all.every((d: { status: string }) => d.status !== 'running' && d.status !== 'queued'));
      await second.stop({ keepData: true });

      // A clean stop while a deployment runs fails it as interrupted too, at once.
      const third = await startDeployingBerth({ dataDir });
      const last = (await third.berth.ok('application.deploy', { applicationId })).deploymentId;
      await third.double.runs(last);
      await until(third.berth, last, 'running');
      await third.reactors.stop();
      const stopped = await third.berth.ok('deployment.one', { deploymentId: last });
      assert.equal(stopped.status, 'error');
      assert.equal(stopped.reason, 'interrupted');
      await third.berth.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('ends a deployment whose cancellation was asked just before the crash as cancelled, its service back to its status before', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-recovery-cancel-'));
    try {
      const first = await startDeployingBerth({ dataDir });
      const { projectId } = await first.berth.ok('project.create', { name: 'crash' });
      const { applicationId } = await first.berth.ok('application.create', { name: 'cancelled-then-crashed', projectId });
      await first.berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'crash:1' });
      const deployed = (await first.berth.ok('application.deploy', { applicationId })).deploymentId;
      (await first.double.runs(deployed)).open();
      await until(first.berth, deployed, 'done');
      const running = (await first.berth.ok('application.deploy', { applicationId })).deploymentId;
      await first.double.runs(running);
      await until(first.berth, running, 'running');
      // The process dies before its reactors hear the cancellation, which is in the log.
      await first.berth.stop({ keepData: true });
      const log = new SqliteEventStore(join(dataDir, 'events.db'));
      await execute(log, deploymentAggregate, running, { type: 'CancelDeployment', data: { deploymentId: running, at: new Date().toISOString() } },
        { actorId: null, correlationId: 'cancel-then-crash', causationId: null, occurredAt: new Date().toISOString() });
      await log.close();

      const second = await startDeployingBerth({ dataDir });
      assert.equal((await until(second.berth, running, 'cancelled')).reason, 'cancelled by request');
      assert.match((await second.berth.ok('deployment.logs', { deploymentId: running })).log, /Cancelled: the service stays on its previous version/);
      assert.equal((await second.berth.ok('application.one', { applicationId })).applicationStatus, 'done');
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
