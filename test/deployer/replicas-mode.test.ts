// How many tasks an application runs is said once: `replicas`, or the replicated mode's own count
// when it gives one, never two different numbers; a global or job mode has no count to contradict.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { DomainError } from '@berth/shared/errors';
import type { Application } from '@berth/shared/domain/application/record';
import { testApplication } from '../support/deploy-work.ts';

const update = (state: Application, data: Partial<Application>) =>
  applicationAggregate.decide({ type: 'UpdateApplication', data: { applicationId: state.applicationId, ...data } }, state);

const refused = (field: string) => (error: unknown) =>
  error instanceof DomainError && error.code === 'BAD_REQUEST' && error.issues[0]?.path === field;

test('replicas that differ from the replicated mode\'s count are refused, naming the field sent', () => {
  const app = testApplication({ modeOrch: { Replicated: { Replicas: 3 } }, replicas: 3 });
  assert.throws(() => update(app, { replicas: 2 }), refused('replicas'));
  assert.throws(() => update(testApplication(), { modeOrch: { Replicated: { Replicas: 3 } } }), refused('modeOrch'));
});

test('replicas other than 1 with a global or job mode are refused', () => {
  assert.throws(() => update(testApplication({ replicas: 2 }), { modeOrch: { Global: {} } }), refused('modeOrch'));
  assert.throws(() => update(testApplication({ modeOrch: { GlobalJob: {} } }), { replicas: 4 }), refused('replicas'));
});

test('one count said the same way twice, or a mode without a count, is saved', () => {
  assert.equal(update(testApplication(), { modeOrch: { Replicated: { Replicas: 3 } }, replicas: 3 }).length, 1);
  assert.equal(update(testApplication({ replicas: 3 }), { modeOrch: { Replicated: {} } }).length, 1);
  assert.equal(update(testApplication({ replicas: 3 }), { modeOrch: { Global: {} }, replicas: 1 }).length, 1);
});
