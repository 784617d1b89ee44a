import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { specOf } from '../testing.ts';
import { deploymentAggregate, lastEndedFirst, newDeployment, requestOf, type Deployment, type DeploymentEvent } from './deployment.ts';

const spec = specOf(deploymentAggregate);
const deploymentId = 'd1';
const at = '2026-01-01T00:00:00.000Z';
const queued = newDeployment({
  deploymentId, applicationId: 'a1', composeId: null, kind: 'deploy', title: 'Deploy', trigger: 'account', accountId: 'u1',
  image: null, rollbackOf: null, createdAt: at,
});
const started: DeploymentEvent = { type: 'DeploymentStarted', data: { deploymentId, at, statusBefore: 'idle' } };

describe('deployment decider', () => {
  it('records only the request when queueing (schema version 2), and folds it into a queued record', () => {
    spec.given([]).when({ type: 'QueueDeployment', data: queued }).then([{ type: 'DeploymentQueued', data: requestOf(queued) }]);
    assert.deepEqual(deploymentAggregate.evolve(null, { type: 'DeploymentQueued', data: requestOf(queued) }), queued);
    assert.equal('status' in requestOf(queued), false);
  });

  it('starts a queued deployment once: a second start appends nothing', () => {
    spec.given([{ type: 'DeploymentQueued', data: queued }]).when({ type: 'StartDeployment', data: { deploymentId, at, statusBefore: 'idle' } })
      .then([started]);
    spec.given([{ type: 'DeploymentQueued', data: queued }, started])
      .when({ type: 'StartDeployment', data: { deploymentId, at, statusBefore: 'idle' } }).then([]);
  });

  it('cancels a queued deployment at once, and only asks a running one to stop', () => {
    spec.given([{ type: 'DeploymentQueued', data: queued }]).when({ type: 'CancelDeployment', data: { deploymentId, at } })
      .then([{ type: 'DeploymentCancelled', data: { deploymentId, at, reason: 'cancelled by request' } }]);
    spec.given([{ type: 'DeploymentQueued', data: queued }, started]).when({ type: 'CancelDeployment', data: { deploymentId, at } })
      .then([{ type: 'DeploymentCancellationRequested', data: { deploymentId, at } }]);
  });

  it('cancels for cleanQueues only while queued: one that started meanwhile runs on, and one that ended is no error', () => {
    spec.given([{ type: 'DeploymentQueued', data: queued }]).when({ type: 'CancelQueuedDeployment', data: { deploymentId, at } })
      .then([{ type: 'DeploymentCancelled', data: { deploymentId, at, reason: 'cancelled by request' } }]);
    spec.given([{ type: 'DeploymentQueued', data: queued }, started]).when({ type: 'CancelQueuedDeployment', data: { deploymentId, at } }).then([]);
    const finished: DeploymentEvent = { type: 'DeploymentFinished', data: { deploymentId, at, image: 'web:1', revision: null } };
    spec.given([{ type: 'DeploymentQueued', data: queued }, started, finished]).when({ type: 'CancelQueuedDeployment', data: { deploymentId, at } }).then([]);
  });

  it('never starts a cancelled deployment, and refuses to cancel one that ended', () => {
    const cancelled: DeploymentEvent = { type: 'DeploymentCancelled', data: { deploymentId, at, reason: 'cancelled by request' } };
    spec.given([{ type: 'DeploymentQueued', data: queued }, cancelled])
      .when({ type: 'StartDeployment', data: { deploymentId, at, statusBefore: 'idle' } }).then([]);
    spec.given([{ type: 'DeploymentQueued', data: queued }, cancelled])
      .when({ type: 'CancelDeployment', data: { deploymentId, at } }).thenFails('CONFLICT', 'deploymentId');
  });

  it('fails a running deployment once (an interrupted one on restart), and a finished one stays as it ended', () => {
    spec.given([{ type: 'DeploymentQueued', data: queued }, started])
      .when({ type: 'FailDeployment', data: { deploymentId, at, reason: 'interrupted' } })
      .then([{ type: 'DeploymentFailed', data: { deploymentId, at, reason: 'interrupted' } }]);
    spec.given([{ type: 'DeploymentQueued', data: queued }, started,
      { type: 'DeploymentFinished', data: { deploymentId, at, image: 'app:d1', revision: null } }])
      .when({ type: 'FailDeployment', data: { deploymentId, at, reason: 'interrupted' } }).then([]);
  });

  it('prunes only a finished deployment', () => {
    spec.given([{ type: 'DeploymentQueued', data: queued }, started]).when({ type: 'PruneDeployment', data: { deploymentId } }).then([]);
    spec.given([{ type: 'DeploymentQueued', data: queued }]).when({ type: 'FinishDeployment', data: { deploymentId, at, image: 'x', revision: null } }).then([]);
  });

  it('an unknown deployment is NOT_FOUND', () => {
    spec.given([]).when({ type: 'CancelDeployment', data: { deploymentId, at } }).thenFails('NOT_FOUND', 'deploymentId');
  });
});

describe('the order deployments are kept in (latest ended first)', () => {
  const ended = (id: string, createdAt: string, startedAt: string | null, finishedAt: string): Deployment =>
    ({ ...queued, deploymentId: id, createdAt, startedAt, finishedAt, status: startedAt ? 'done' : 'cancelled' });
  it('goes by end, latest first', () => {
    const older = ended('old', '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z');
    const newer = ended('new', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:03.000Z');
    assert.deepEqual([older, newer].sort(lastEndedFirst).map((d) => d.deploymentId), ['new', 'old']);
  });
  it('puts a deploy that ran before one cancelled in its queue that ended in the same millisecond, though that one was made later', () => {
    const ran = ended('ran', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.010Z', '2026-01-01T00:00:00.050Z');
    const cancelled = ended('cancelled', '2026-01-01T00:00:00.020Z', null, '2026-01-01T00:00:00.050Z');
    assert.deepEqual([cancelled, ran].sort(lastEndedFirst).map((d) => d.deploymentId), ['ran', 'cancelled']);
    assert.deepEqual([ran, cancelled].sort(lastEndedFirst).map((d) => d.deploymentId), ['ran', 'cancelled']);
  });
});
