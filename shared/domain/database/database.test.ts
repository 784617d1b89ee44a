import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Sealed } from '../../crypto/secrets.ts';
import { fold } from '../aggregate.ts';
import { specOf } from '../testing.ts';
import { databaseAggregate, databaseAggregates, type Database } from './database.ts';

const base = {
  name: 'orders', appName: 'orders-a1b2c3', description: null, containerImage: 'dbgamma:15', command: null, env: null,
  memoryReservation: null, memoryLimit: null, cpuReservation: null, cpuLimit: null, externalPort: null,
  applicationStatus: 'idle', createdAt: '2026-01-01T00:00:00.000Z', projectId: 'p1',
} satisfies Omit<Database, 'dbgammaId'>;
const gamma: Database = {
  ...base, dbgammaId: 'g1', databaseName: 'orders', databaseUser: 'app', databasePassword: 'enc:v1:a.b.c' as Sealed,
};
const epsilon: Database = { ...base, containerImage: 'dbepsilon:8', dbepsilonId: 'e1', databasePassword: 'enc:v1:d.e.f' as Sealed };

describe('database decider (one factory for every engine)', () => {
  it('names each engine aggregate, its id field, stream prefix and label after the engine', () => {
    assert.equal(databaseAggregates.dbdelta.name, 'dbdelta');
    assert.equal(databaseAggregates.dbdelta.idField, 'dbdeltaId');
    assert.equal(databaseAggregates.dbdelta.label, 'dbdelta database');
  });

  it('records events named after their engine', () => {
    specOf(databaseAggregate('dbgamma')).given([]).when({ type: 'CreateDatabase', data: gamma })
      .then([{ type: 'DbgammaCreated', data: gamma }]);
    specOf(databaseAggregate('dbepsilon')).given([]).when({ type: 'CreateDatabase', data: epsilon })
      .then([{ type: 'DbepsilonCreated', data: epsilon }]);
  });

  it('refuses to create the same database twice, naming its id field', () => {
    specOf(databaseAggregates.dbgamma).given([{ type: 'DbgammaCreated', data: gamma }])
      .when({ type: 'CreateDatabase', data: gamma }).thenFails('CONFLICT', 'dbgammaId');
  });

  it('records only the fields an update changes', () => {
    specOf(databaseAggregates.dbepsilon).given([{ type: 'DbepsilonCreated', data: epsilon }])
      .when({ type: 'UpdateDatabase', data: { dbepsilonId: 'e1', name: 'orders', env: 'A=1', externalPort: 6380 } })
      .then([{ type: 'DbepsilonUpdated', data: { env: 'A=1', externalPort: 6380, dbepsilonId: 'e1' } }]);
  });

  it('changes the status to the given one, and appends nothing when it already is', () => {
    const spec = specOf(databaseAggregates.dbgamma).given([{ type: 'DbgammaCreated', data: gamma }]);
    spec.when({ type: 'ChangeDatabaseStatus', data: { dbgammaId: 'g1', applicationStatus: 'running' } })
      .then([{ type: 'DbgammaStatusChanged', data: { dbgammaId: 'g1', applicationStatus: 'running' } }]);
    spec.when({ type: 'ChangeDatabaseStatus', data: { dbgammaId: 'g1', applicationStatus: 'idle' } }).then([]);
  });

  it('follows its deployment: the start makes it running, the end as it ended; nothing once removed', () => {
    const created = { type: 'DbgammaCreated', data: gamma } as const;
    const running = { type: 'DbgammaStatusChanged', data: { dbgammaId: 'g1', applicationStatus: 'running' } } as const;
    const stopped = { type: 'DbgammaActionSucceeded', data: { dbgammaId: 'g1', action: 'stop', requestId: 'r1', applicationStatus: 'idle' } } as const;
    const follow = (step: 'started' | 'done' | 'cancelled') => ({ type: 'FollowDeployment', data: { dbgammaId: 'g1', step, statusBefore: 'done' } }) as const;
    const spec = specOf(databaseAggregates.dbgamma);
    spec.given([created]).when(follow('started')).then([running]);
    spec.given([created, running]).when(follow('done')).then([{ type: 'DbgammaStatusChanged', data: { dbgammaId: 'g1', applicationStatus: 'done' } }]);
    spec.given([created, running]).when(follow('cancelled')).then([{ type: 'DbgammaStatusChanged', data: { dbgammaId: 'g1', applicationStatus: 'done' } }]);
    spec.given([created, running, stopped]).when(follow('started')).then([running]);
    spec.given([created, { type: 'DbgammaRemoved', data: { dbgammaId: 'g1' } }]).when(follow('done')).then([]);
  });

  it('folds a status change into the record', () => {
    const aggregate = databaseAggregates.dbgamma;
    const state = fold(aggregate, [
      { type: 'DbgammaCreated', data: gamma }, { type: 'DbgammaStatusChanged', data: { dbgammaId: 'g1', applicationStatus: 'error' } },
    ]);
    assert.equal(state?.applicationStatus, 'error');
  });

  it('answers NOT_FOUND naming the engine id field for a removed database', () => {
    specOf(databaseAggregates.dbepsilon)
      .given([{ type: 'DbepsilonCreated', data: epsilon }, { type: 'DbepsilonRemoved', data: { dbepsilonId: 'e1' } }])
      .when({ type: 'UpdateDatabase', data: { dbepsilonId: 'e1', name: 'x' } }).thenFails('NOT_FOUND', 'dbepsilonId');
  });

  it('asks the reactors for start, stop and reload of an existing database only', () => {
    const request = { dbgammaId: 'g1', action: 'stop', requestId: 'r1' } as const;
    specOf(databaseAggregates.dbgamma).given([{ type: 'DbgammaCreated', data: gamma }])
      .when({ type: 'RequestAction', data: request }).then([{ type: 'DbgammaActionRequested', data: request }]);
    specOf(databaseAggregates.dbgamma).given([])
      .when({ type: 'RequestAction', data: request }).thenFails('NOT_FOUND', 'dbgammaId');
  });

  it('moves the status by the outcome: a stop to idle, a start to done, a failed reload to error, a failed start not at all', () => {
    const given = specOf(databaseAggregates.dbgamma).given([{ type: 'DbgammaCreated', data: { ...gamma, applicationStatus: 'done' } }]);
    const outcome = (action: 'start' | 'stop' | 'reload', reason: string | null) =>
      ({ type: 'RecordActionOutcome', data: { dbgammaId: 'g1', action, requestId: 'r1', reason } }) as const;
    given.when(outcome('stop', null)).then([{ type: 'DbgammaActionSucceeded', data: { dbgammaId: 'g1', action: 'stop', requestId: 'r1', applicationStatus: 'idle' } }]);
    given.when(outcome('start', null)).then([{ type: 'DbgammaActionSucceeded', data: { dbgammaId: 'g1', action: 'start', requestId: 'r1', applicationStatus: 'done' } }]);
    given.when(outcome('reload', 'not ready')).then([{
      type: 'DbgammaActionFailed', data: { dbgammaId: 'g1', action: 'reload', requestId: 'r1', reason: 'not ready', applicationStatus: 'error' },
    }]);
    given.when(outcome('start', 'no such service')).then([{
      type: 'DbgammaActionFailed', data: { dbgammaId: 'g1', action: 'start', requestId: 'r1', reason: 'no such service', applicationStatus: 'done' },
    }]);
    // Removed while the engine was at it: nothing to record.
    specOf(databaseAggregates.dbgamma).given([{ type: 'DbgammaCreated', data: gamma }, { type: 'DbgammaRemoved', data: { dbgammaId: 'g1' } }])
      .when(outcome('stop', null)).then([]);
  });

  it('marks a removal with its project, refuses it once moved out, and then refuses every change but the removal', () => {
    const spec = specOf(databaseAggregates.dbepsilon);
    const created = { type: 'DbepsilonCreated', data: epsilon } as const;
    const begun = { type: 'DbepsilonRemovalBegun', data: { dbepsilonId: 'e1', projectId: 'p1' } } as const;
    spec.given([created]).when({ type: 'BeginRemoval', data: { dbepsilonId: 'e1', projectId: 'p1' } }).then([begun]);
    spec.given([created, { type: 'DbepsilonUpdated', data: { dbepsilonId: 'e1', projectId: 'p2' } }])
      .when({ type: 'BeginRemoval', data: { dbepsilonId: 'e1', projectId: 'p1' } }).thenFails('CONFLICT', 'projectId');
    const marked = spec.given([created, begun]);
    marked.when({ type: 'BeginRemoval', data: { dbepsilonId: 'e1', projectId: 'p1' } }).then([]);
    marked.when({ type: 'UpdateDatabase', data: { dbepsilonId: 'e1', projectId: 'p2' } }).thenFails('CONFLICT', 'dbepsilonId');
    marked.when({ type: 'ChangeDatabaseStatus', data: { dbepsilonId: 'e1', applicationStatus: 'done' } })
      .then([{ type: 'DbepsilonStatusChanged', data: { dbepsilonId: 'e1', applicationStatus: 'done' } }]);
    marked.when({ type: 'RemoveDatabase', data: { dbepsilonId: 'e1' } }).then([{ type: 'DbepsilonRemoved', data: { dbepsilonId: 'e1' } }]);
  });
});
