import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitStream, type RecordedEvent } from '@berth/shared/events/event';
import type { Doc } from '@berth/shared/ports/read-store';
import { pendingActions } from './pending-actions.ts';

let position = 0;
const event = (stream: string, type: string, data: Record<string, unknown>): RecordedEvent => ({
  id: `e${++position}`, stream, revision: position, position, type, data,
  metadata: { actorId: null, correlationId: 'c', causationId: null, occurredAt: new Date().toISOString() },
} as RecordedEvent);

/** The service's document after `events`, as the runner keeps it. */
function folded(events: readonly RecordedEvent[]): Doc | null {
  let doc: Doc | null = null;
  for (const recorded of events) {
    const stream = splitStream(recorded.stream);
    if (pendingActions.keysOf(recorded, stream).length > 0) doc = pendingActions.evolve(doc, recorded, stream);
  }
  return doc;
}

describe('the services with actions asked and not answered', () => {
  it('keeps a service while one of its requests has no answer, in the order asked', () => {
    const asked = (requestId: string) => event('application-a1', 'ApplicationActionRequested', { applicationId: 'a1', action: 'start', requestId });
    const answered = event('application-a1', 'ApplicationActionSucceeded', { applicationId: 'a1', action: 'start', requestId: 'r1', applicationStatus: 'done' });
    assert.deepEqual(folded([asked('r1'), asked('r2')]), { aggregate: 'application', id: 'a1', requests: ['r1', 'r2'] });
    assert.deepEqual(folded([asked('r1'), asked('r2'), answered]), { aggregate: 'application', id: 'a1', requests: ['r2'] });
    assert.equal(folded([asked('r1'), answered]), null);
  });

  it('lets a service go when it is removed, its requests unanswered', () => {
    const asked = event('dbalpha-d1', 'DbalphaActionRequested', { databaseId: 'd1', action: 'stop', requestId: 'r3' });
    assert.deepEqual(folded([asked])?.requests, ['r3']);
    assert.equal(folded([asked, event('dbalpha-d1', 'DbalphaRemoved', { databaseId: 'd1' })]), null);
  });

  it('touches nothing for the service events that neither ask nor answer', () => {
    const renamed = event('compose-c1', 'ComposeUpdated', { composeId: 'c1', name: 'renamed' });
    assert.deepEqual(pendingActions.keysOf(renamed, splitStream(renamed.stream)), []);
  });
});
