// A creation whose last step (its resource counting it as a user) meets the event log going away:
// the record exists already, and an undoing would meet the same outage, so the step is tried again
// until the log is back. The answer is the created record, never a 503 inviting a retry that would
// create a second one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NewEvent } from '@berth/shared/events/event';
import type { ExpectedRevision } from '@berth/shared/ports/event-store';
import { UnavailableError } from '@berth/shared/ports/unavailable';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('an event log outage in the middle of a creation', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  it('answers the created application once the log is back, with its project counting it once', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'outage' });
    const store = berth.berth.infrastructure.eventStore;
    const append = store.append.bind(store);
    let outageUntil = 0;
    // The use's append lands, but its answer is lost to an outage that lasts a second: every append
    // meanwhile fails without landing, as a store away does.
    store.append = async (stream: string, events: readonly NewEvent[], expected: ExpectedRevision) => {
      if (Date.now() < outageUntil) throw new UnavailableError('the event log', new Error('no answer'));
      if (outageUntil === 0 && events[0]?.type === 'UsageStarted') {
        await append(stream, events, expected);
        outageUntil = Date.now() + 1000;
        throw new UnavailableError('the event log', new Error('no answer'));
      }
      return append(stream, events, expected);
    };
    try {
      const answer = await berth.call('application.create', { name: 'web', projectId });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.name, 'web');
    } finally {
      store.append = append;
    }
    const project = await berth.ok('project.one', { projectId });
    assert.deepEqual(project.applications.map((app: { name: string }) => app.name), ['web'], 'one application, in its project');
    const log = (await store.readAll(0, 10_000)).map((event) => ({ type: event.type, data: event.data as Record<string, unknown> }));
    const applicationId = log.find((event) => event.type === 'ApplicationCreated')!.data.applicationId;
    assert.equal(log.filter((event) => event.type === 'UsageStarted' && event.data.user === applicationId).length, 1, 'counted once');
  });
});
