// A shutdown (SIGTERM) starts nothing more, also a deployment the queue handed out just before it:
// one whose job has not started its work yet stays queued (the next start runs it), rather than
// starting while Berth stops, its work never aborted and the shutdown waiting for a whole build.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Deployer } from '@berth/reactors/deployer/deployer';
import type { DeploymentWork } from '@berth/reactors/deployer/work';
import { reporter } from '@berth/reactors/runtime/report';
import { deploymentLogsOf } from '@berth/shared/adapters/deployment-logs';
import { streamName } from '@berth/shared/events/event';
import type { EventStore } from '@berth/shared/ports/event-store';
import { startBerth, type TestBerth } from '../support/berth.ts';

/** The event store, with reads of one stream held at a gate once armed: a job caught before its start. */
function heldReads(eventStore: EventStore) {
  let held: string | null = null;
  let reached = () => {};
  const reachedGate = new Promise<void>((resolve) => { reached = resolve; });
  let release = () => {};
  const released = new Promise<void>((resolve) => { release = resolve; });
  const store = new Proxy(eventStore, {
    get(target, property, receiver) {
      if (property !== 'readStream') return Reflect.get(target, property, receiver);
      return async (stream: string) => {
        if (stream === held) { reached(); await released; }
        return target.readStream(stream);
      };
    },
  });
  return { store, hold: (stream: string) => { held = stream; }, reachedGate, release };
}

describe('a shutdown while a deployment is about to start', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  it('leaves a deployment handed out just before the stop queued, its work never started', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'stopping' });
    const { applicationId } = await berth.ok('application.create', { name: 'about-to-start', projectId });
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'about-to-start:1' });
    const { deploymentId } = await berth.ok('application.deploy', { applicationId });
    const infra = berth.berth.infrastructure;
    const reads = heldReads(infra.eventStore);
    const started: string[] = [];
    const run = (work: DeploymentWork) => {
      started.push(work.deploymentId);
      // A build that runs until it is aborted, or 3 s.
      return new Promise<{ image: string; revision: null }>((resolve, reject) => {
        const timer = setTimeout(() => resolve({ image: 'built', revision: null }), 3000);
        work.signal.addEventListener('abort', () => { clearTimeout(timer); reject(new Error('aborted')); }, { once: true });
      });
    };
    const deployer = new Deployer({
      eventStore: reads.store, readStore: infra.readStore, secrets: infra.secrets, clock: infra.clock,
      report: reporter(infra), logs: deploymentLogsOf(infra.config.dataDir), run, pruneImages: async () => {},
      composes: async () => null, databases: async () => null, concurrency: 2, keep: 5,
    });
    reads.hold(streamName('application', applicationId));
    deployer.queue.add({ deploymentId, serviceId: applicationId, cause: null });
    await reads.reachedGate; // the job is handed out, its work not started yet
    const stopped = deployer.stop();
    reads.release();
    const begun = Date.now();
    await stopped;
    assert.deepEqual(started, [], 'the work of a deployment started while Berth stopped');
    assert.ok(Date.now() - begun < 2000, `the stop waited ${Date.now() - begun} ms for work that started after it`);
    assert.equal((await berth.ok('deployment.one', { deploymentId })).status, 'queued');
  });
});
