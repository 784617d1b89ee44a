// events.follow for a client that takes JSON, not an event stream: a long poll. Its answer always
// carries the cursor to poll again from, also when it waited its whole bound and found no event.
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Following, type Page } from '@berth/command-api/history/answers';
import { selectionOf, type SelectionInput } from '@berth/command-api/history/selection';
import type { RecordedEvent } from '@berth/shared/events/event';
import type { EventStore } from '@berth/shared/ports/event-store';

/** The bound a long poll waits for its first event (LONG_POLL_MS). */
const LONG_POLL_MS = 20_000;

const eventAt = (position: number): RecordedEvent => ({
  id: `e${position}`, type: 'ProjectCreated', stream: `project-p${position}`, revision: 0, position, data: {},
  metadata: { actorId: null, correlationId: 'c', causationId: null, occurredAt: new Date(0).toISOString(), schemaVersion: 1 },
});

/** A log of `size` events whose subscription hands over nothing; `subscribed` settles once a follow subscribes. */
function quietLog(size: number) {
  const unused = () => { throw new Error('not used by a long poll'); };
  const events = Array.from({ length: size }, (_, index) => eventAt(index + 1));
  let subscribed = () => {};
  const store: EventStore = {
    head: async () => events.length,
    readFiltered: async (_filter, after, limit) => events.filter((event) => event.position > after).slice(0, limit),
    subscribe() {
      subscribed();
      return { stop: async () => {} };
    },
    append: unused, readStream: unused, readAll: unused, close: async () => {},
  };
  return {
    store,
    append: () => events.push(eventAt(events.length + 1)),
    subscribed: () => new Promise<void>((resolve) => { subscribed = resolve; }),
  };
}

/** Long-polls `store` with the query `input`; answers the page the reply was sent. */
async function poll(store: EventStore, input: SelectionInput): Promise<Page> {
  let sent: Page | undefined;
  const reply = { send: (page: Page) => { sent = page; return reply; } };
  const request = { headers: {}, log: { warn: () => {} } };
  await new Following(store, selectionOf(input))
    .send(request as unknown as FastifyRequest, reply as unknown as FastifyReply, { signal: new AbortController().signal, stillAllowed: async () => true });
  return sent!;
}

describe('events.follow as a long poll', () => {
  it('answers a poll that waited out its bound with no event with a cursor that polls on from where it began', async () => {
    const log = quietLog(5);
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const subscribed = log.subscribed();
      const waiting = poll(log.store, { after: '5' });
      // The poll's timer is set before it subscribes: from then on it waits for the bound alone.
      await subscribed;
      mock.timers.tick(LONG_POLL_MS);
      const empty = await waiting;
      assert.deepEqual(empty.events, []);
      assert.ok(empty.nextCursor, 'a long poll that found nothing still answers where to poll again from');
      log.append();
      const next = await poll(log.store, { cursor: empty.nextCursor });
      assert.deepEqual(next.events.map((event) => event.position), [6]);
      assert.ok(next.nextCursor);
    } finally {
      mock.timers.reset();
    }
  });
});
