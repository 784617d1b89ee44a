// events.follow over a long log: a follower that reads nothing holds the server to a bounded
// buffer (the log, history and live tail alike, is read only as fast as the follower takes it), and
// one that reads gets every event in order, then the live ones.
import assert from 'node:assert/strict';
import type { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Following } from '@berth/command-api/history/answers';
import { selectionOf } from '@berth/command-api/history/selection';
import type { RecordedEvent } from '@berth/shared/events/event';
import type { EventStore } from '@berth/shared/ports/event-store';

const eventAt = (position: number): RecordedEvent => ({
  id: `e${position}`, type: 'ProjectCreated', stream: `project-p${position}`, revision: 0, position,
  data: { name: 'x'.repeat(200) },
  metadata: { actorId: null, correlationId: 'c', causationId: null, occurredAt: new Date(0).toISOString(), schemaVersion: 1 },
});

interface FakeLog {
  readonly store: EventStore;
  /** How many live events the subscription has handed over so far. */
  readonly delivered: () => number;
}

/** A log of `size` events, read by page, then `live` more appended, handed over 100 at a time as a subscription does. */
function logOf(size: number, live = 0): FakeLog {
  const unused = () => { throw new Error('not used by a follow'); };
  let delivered = 0;
  const store: EventStore = {
    head: async () => size,
    readFiltered: async (_filter, after, limit) =>
      Array.from({ length: Math.max(0, Math.min(size, after + limit) - after) }, (_, index) => eventAt(after + index + 1)),
    subscribe(after, onEvents) {
      let stopped = false;
      void (async () => {
        while (!stopped && delivered < live) {
          const batch = Array.from({ length: Math.min(100, live - delivered) }, (_, index) => eventAt(after + delivered + index + 1));
          await onEvents(batch);
          delivered += batch.length;
        }
      })();
      return { stop: async () => { stopped = true; } };
    },
    append: unused, readStream: unused, readAll: unused, close: async () => {},
  };
  return { store, delivered: () => delivered };
}

/** Starts a server-sent follow of `store` from the start; answers the stream the reply was given. */
async function follow(store: EventStore): Promise<PassThrough> {
  let sent: PassThrough | undefined;
  const reply = {
    raw: { once: () => reply }, type: () => reply, header: () => reply,
    send: (stream: PassThrough) => { sent = stream; return reply; },
  };
  const request = { headers: { accept: 'text/event-stream' }, log: { warn: () => {} } };
  await new Following(store, selectionOf({}))
    .send(request as unknown as FastifyRequest, reply as unknown as FastifyReply, { signal: new AbortController().signal, stillAllowed: async () => true });
  return sent!;
}

describe('events.follow backpressure', () => {
  it('buffers a bounded amount for a follower that reads nothing, however long the log', async () => {
    const out = await follow(logOf(200_000).store);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const buffered = out.writableLength + out.readableLength;
    out.destroy();
    assert.ok(buffered < 256 * 1024, `${buffered} bytes buffered for a follower that reads nothing`);
  });

  it('holds back the live tail too: a follower that reads nothing is handed a bounded number of new events', async () => {
    const log = logOf(0, 100_000);
    const out = await follow(log.store);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const delivered = log.delivered();
    out.destroy();
    assert.ok(delivered <= 2_000, `${delivered} live events taken from the log for a follower that reads nothing`);
  });

  it('gives a follower that reads every event in order, then the live ones', async () => {
    const out = await follow(logOf(5_000, 2_000).store);
    const positions: number[] = [];
    let text = '';
    for await (const chunk of out) {
      text += String(chunk);
      const frames = text.split('\n\n');
      text = frames.pop()!;
      for (const frame of frames) if (frame.startsWith('id: ')) positions.push(Number(frame.slice(4, frame.indexOf('\n'))));
      if (positions.length === 7_000) break;
    }
    assert.deepEqual(positions, Array.from({ length: 7_000 }, (_, index) => index + 1));
  });
});
