// A change seen on the engine moves only a `done` status (to `error`), and sets back only the status it set.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fold } from '../aggregate.ts';
import { composeAggregate, type ComposeEvent } from '../compose/compose.ts';
import { databaseAggregates, type DatabaseEvent } from '../database/database.ts';
import { specOf } from '../testing.ts';
import { applicationAggregate, newApplication, type ApplicationEvent } from './application.ts';
import { statusSeen } from './engine-drift.ts';

const spec = specOf(applicationAggregate);
const created: ApplicationEvent = { type: 'ApplicationCreated', data: newApplication({
  applicationId: 'a1', projectId: 'p1', name: 'shop', appName: 'shop-0a1b2c', description: null, refreshToken: 't1', createdAt: '2026-01-01T00:00:00.000Z',
}) };
const status = (applicationStatus: 'idle' | 'running' | 'done' | 'error'): ApplicationEvent =>
  ({ type: 'ApplicationStatusChanged', data: { applicationId: 'a1', deploymentId: 'd1', applicationStatus } });
const seen = (what: 'missing' | 'no-replicas' | 'replicas') => ({ type: 'RecordEngineState' as const, data: { applicationId: 'a1', seen: what } });
const changed = (what: 'missing' | 'no-replicas' | 'replicas', applicationStatus: 'done' | 'error'): ApplicationEvent =>
  ({ type: 'ApplicationEngineChanged', data: { applicationId: 'a1', seen: what, applicationStatus } });

describe('status seen on the engine', () => {
  it('moves only done to error, and sets back only a status it set', () => {
    assert.equal(statusSeen('missing', 'done', false), 'error');
    assert.equal(statusSeen('no-replicas', 'done', false), 'error');
    for (const other of ['idle', 'running', 'error'] as const) assert.equal(statusSeen('no-replicas', other, false), null);
    assert.equal(statusSeen('replicas', 'error', true), 'done');
    assert.equal(statusSeen('replicas', 'error', false), null, 'a failed deployment stays failed');
    assert.equal(statusSeen('replicas', 'done', false), null);
  });

  it('marks a done application scaled to 0 or removed behind Berth\'s back as error', () => {
    spec.given([created, status('done')]).when(seen('no-replicas')).then([changed('no-replicas', 'error')]);
    spec.given([created, status('done')]).when(seen('missing')).then([changed('missing', 'error')]);
    spec.given([created, status('done')]).when(seen('replicas')).then([]);
  });

  it('leaves a stopped, running or failed application as it is', () => {
    for (const other of ['idle', 'running', 'error'] as const) spec.given([created, status(other)]).when(seen('missing')).then([]);
  });

  it('sets back to done the status it set once the engine runs the service again, and only that one', () => {
    spec.given([created, status('done'), changed('no-replicas', 'error')]).when(seen('replicas')).then([changed('replicas', 'done')]);
    spec.given([created, status('done'), changed('no-replicas', 'error')]).when(seen('missing')).then([]);
    // A deployment that failed after it: its error is its own.
    spec.given([created, status('done'), changed('missing', 'error'), status('running'), status('error')]).when(seen('replicas')).then([]);
  });

  it('folds the mark, and drops it when the status moves another way', () => {
    const drifted = fold(applicationAggregate, [created, status('done'), changed('missing', 'error')]);
    assert.equal(drifted?.applicationStatus, 'error');
    assert.equal(drifted?.engineDrift, 'missing');
    assert.equal(fold(applicationAggregate, [created, status('done'), changed('missing', 'error'), status('running')])?.engineDrift, undefined);
    assert.equal(fold(applicationAggregate, [created, status('done'), changed('missing', 'error'), changed('replicas', 'done')])?.engineDrift, undefined);
  });

  it('decides nothing for a deleted application or one being removed', () => {
    spec.given([]).when(seen('missing')).then([]);
    spec.given([created, status('done'), { type: 'ApplicationRemovalBegun', data: { applicationId: 'a1', projectId: 'p1' } }]).when(seen('missing')).then([]);
  });

  it('decides the same for a database and a compose service', () => {
    const db = databaseAggregates.dbalpha;
    const dbDone: DatabaseEvent[] = [
      { type: 'DbalphaCreated', data: { dbalphaId: 'b1', applicationStatus: 'idle' } as never },
      { type: 'DbalphaStatusChanged', data: { dbalphaId: 'b1', applicationStatus: 'done' } },
    ];
    const dbChanged = db.decide({ type: 'RecordEngineState', data: { dbalphaId: 'b1', seen: 'no-replicas' } }, fold(db, dbDone));
    assert.deepEqual(dbChanged, [{ type: 'DbalphaEngineChanged', data: { dbalphaId: 'b1', seen: 'no-replicas', applicationStatus: 'error' } }]);
    assert.deepEqual(db.decide({ type: 'RecordEngineState', data: { dbalphaId: 'b1', seen: 'replicas' } }, fold(db, [...dbDone, ...dbChanged])),
      [{ type: 'DbalphaEngineChanged', data: { dbalphaId: 'b1', seen: 'replicas', applicationStatus: 'done' } }]);
    const composeDone: ComposeEvent[] = [
      { type: 'ComposeCreated', data: { composeId: 'c1', composeStatus: 'idle' } as never },
      { type: 'ComposeStatusChanged', data: { composeId: 'c1', deploymentId: 'd1', composeStatus: 'done' } },
    ];
    assert.deepEqual(composeAggregate.decide({ type: 'RecordEngineState', data: { composeId: 'c1', seen: 'missing' } }, fold(composeAggregate, composeDone)),
      [{ type: 'ComposeEngineChanged', data: { composeId: 'c1', seen: 'missing', composeStatus: 'error' } }]);
  });
});
