// What the history's selection takes: a misspelt event type or aggregate is refused with a 400
// naming the field (an empty answer would read as "nothing happened"), in every operation that
// selects; `from` and `to` keep the instant given, sub-millisecond digits included.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RecordedEvent } from '@berth/shared/events/event';
import { listeningBerth, signInFirstAdmin, type HttpClient, type ListeningBerth } from '../support/http.ts';

const ADMIN = { email: 'filters@berth.test', password: 'a long enough password' };

describe('the history\'s selection', () => {
  let server: ListeningBerth;
  let api: HttpClient;
  before(async () => {
    server = await listeningBerth();
    api = await signInFirstAdmin(server, ADMIN);
  });
  after(() => server.stop());

  /** The status and body of `operation` with `query`, as an event-stream client asks (a follow answers at once). */
  async function asked(operation: string, query: Record<string, string>) {
    const response = await fetch(`${api.baseUrl}/api/${operation}?${new URLSearchParams(query)}`, {
      headers: { authorization: `Bearer ${api.token}`, accept: 'text/event-stream, application/json' },
    });
    const body = (response.status === 200 ? null : await response.json()) as { code: string; message: string; issues: Array<{ path: string }> };
    if (response.status === 200) await response.body?.cancel();
    return { status: response.status, body };
  }

  for (const operation of ['events.all', 'events.follow', 'events.export']) {
    it(`${operation} refuses a misspelt type or aggregate with a 400 naming it`, async () => {
      for (const [field, value] of [['type', 'ProjectCreate'], ['aggregate', 'projects']] as const) {
        const { status, body } = await asked(operation, { [field]: value });
        assert.equal(status, 400, `${field}=${value}`);
        assert.equal(body.code, 'BAD_REQUEST');
        assert.deepEqual(body.issues.map((issue) => issue.path), [field]);
        assert.match(body.message, new RegExp(value));
      }
      assert.equal((await asked(operation, { type: 'ProjectCreated', aggregate: 'project' })).status, 200);
    });
  }

  it('takes the types and aggregates Berth appends beyond the webhooks\' (sign-in attempts, deliveries)', async () => {
    const queries: Array<Record<string, string>> = [{ aggregate: 'attempts' }, { type: 'AttemptStarted' }, { aggregate: 'delivery' }, { type: 'SubscriptionCreated' }];
    for (const query of queries) {
      assert.equal((await asked('events.all', query)).status, 200, JSON.stringify(query));
    }
  });

  it('keeps from and to to the instant given: half a millisecond after an event is after it', async () => {
    const { projectId } = await api.ok('project.create', { name: 'timed' });
    const stream = `project-${projectId}`;
    const [created] = (await api.ok('events.all', { stream })).events as RecordedEvent[];
    const halfAfter = created!.metadata.occurredAt.replace('Z', '5Z');
    assert.deepEqual((await api.ok('events.all', { stream, from: halfAfter })).events, [], 'from half a millisecond after it');
    assert.deepEqual((await api.ok('events.all', { stream, to: halfAfter })).events.map((event: RecordedEvent) => event.id), [created!.id],
      'to half a millisecond after it');
    // Whole milliseconds keep their meaning: from is inclusive, to exclusive.
    assert.equal((await api.ok('events.all', { stream, from: created!.metadata.occurredAt })).events.length, 1);
    assert.equal((await api.ok('events.all', { stream, to: created!.metadata.occurredAt })).events.length, 0);
  });
});
