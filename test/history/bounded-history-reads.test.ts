// The history's long answers hold little per client: the export and the follow read the log in
// small pages (fewer events the larger they are) and no faster than the client takes them, and
// events.stream answers a page of a stream, continued with its cursor, as events.all does.
import assert from 'node:assert/strict';
import { Writable, type Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Following, NdjsonExport } from '@berth/command-api/history/answers';
import { selectionOf } from '@berth/command-api/history/selection';
import type { StreamedAnswer } from '@berth/command-api/streamed';
import { MAX_PAGE_SIZE } from '@berth/shared/contract/events';
import type { RecordedEvent } from '@berth/shared/events/event';
import type { EventStore } from '@berth/shared/ports/event-store';
import { listeningBerth, signInFirstAdmin, type HttpClient, type ListeningBerth } from '../support/http.ts';

const MB = 1024 * 1024;

interface CountingLog {
  readonly store: EventStore;
  /** The `limit` of every read, in order. */
  readonly limits: number[];
  /** How many events the store has handed out. */
  readonly handedOut: () => number;
}

/** A log of `size` events of about `bytes` each (one shared string: the test itself stays small). */
function countingLog(size: number, bytes: number): CountingLog {
  const text = 'x'.repeat(bytes);
  const limits: number[] = [];
  let handedOut = 0;
  const eventAt = (position: number): RecordedEvent => ({
    id: `e${position}`, type: 'ApplicationEnvironmentSaved', stream: 'application-a1', revision: position - 1, position,
    data: { applicationId: 'a1', text },
    metadata: { actorId: null, correlationId: 'c', causationId: null, occurredAt: new Date(0).toISOString(), schemaVersion: 1 },
  });
  const unused = () => { throw new Error('not used by the history'); };
  const store: EventStore = {
    head: async () => size,
    readFiltered: async (_filter, after, limit) => {
      limits.push(limit);
      const page = Array.from({ length: Math.max(0, Math.min(size, after + limit) - after) }, (_, index) => eventAt(after + index + 1));
      handedOut += page.length;
      return page;
    },
    subscribe: () => ({ stop: async () => {} }),
    append: unused, readStream: unused, readAll: unused, close: async () => {},
  };
  return { store, limits, handedOut: () => handedOut };
}

/** A connection whose client reads nothing: the first write never completes. */
const stalled = () => new Writable({ highWaterMark: 16 * 1024, write: () => {} });

/** Sends `answer` as Berth would; answers the body it was given. */
async function sentTo(answer: StreamedAnswer, accept = 'application/x-ndjson'): Promise<Readable> {
  let body: Readable | undefined;
  const reply = {
    raw: { once: () => reply }, type: () => reply, header: () => reply,
    send: (sent: Readable) => { body = sent; return reply; },
  };
  const request = { headers: { accept }, log: { warn: () => {} } };
  await answer.send(request as unknown as FastifyRequest, reply as unknown as FastifyReply,
    { signal: new AbortController().signal, stillAllowed: async () => true });
  return body!;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

describe('history answers: small pages, read as the client takes them', () => {
  it('an export to a client that reads nothing reads a few MB of a log of large events, in pages of at most 50', async () => {
    const log = countingLog(1000, MB);
    const body = await sentTo(new NdjsonExport(log.store, selectionOf({})));
    body.pipe(stalled());
    await settle();
    body.destroy();
    assert.ok(Math.max(...log.limits) <= 50, `reads of up to ${Math.max(...log.limits)} events`);
    assert.ok(log.handedOut() <= 4, `${log.handedOut()} events of 1 MB read for a client that took none`);
  });

  it('an export of small events still reads pages of up to 50, not one event at a time', async () => {
    const log = countingLog(1000, 100);
    const body = await sentTo(new NdjsonExport(log.store, selectionOf({})));
    let lines = 0;
    for await (const chunk of body) lines += String(chunk).split('\n').length - 1;
    assert.equal(lines, 1000);
    assert.ok(Math.max(...log.limits) === 50 && log.limits.length <= 25, `reads: ${log.limits.join(', ')}`);
  });

  it('a follow of a log of large events by a client that reads nothing reads a few MB of it', async () => {
    const log = countingLog(1000, MB);
    const body = await sentTo(new Following(log.store, selectionOf({})), 'text/event-stream');
    body.pipe(stalled());
    await settle();
    body.destroy();
    assert.ok(Math.max(...log.limits) <= 50, `reads of up to ${Math.max(...log.limits)} events`);
    assert.ok(log.handedOut() <= 4, `${log.handedOut()} events of 1 MB read for a follower that took none`);
  });
});

describe('events.stream: a page of the stream at a time', () => {
  let server: ListeningBerth;
  let api: HttpClient;
  let projectId: string;
  const ADMIN = { email: 'pages@berth.test', password: 'a long enough password' };

  before(async () => {
    server = await listeningBerth();
    api = await signInFirstAdmin(server, ADMIN);
    ({ projectId } = await api.ok('project.create', { name: 'paged' }));
    for (let index = 0; index < 104; index++) await api.ok('project.update', { projectId, name: `paged ${index}` });
  });
  after(() => server.stop());

  it('answers 100 events by default, with a cursor that continues the stream to its end', async () => {
    const stream = `project-${projectId}`;
    const first = await api.ok('events.stream', { stream });
    assert.equal(first.events.length, 100);
    assert.equal(first.revision, 99);
    assert.equal(typeof first.nextCursor, 'string');
    const rest = await api.ok('events.stream', { stream, cursor: first.nextCursor });
    assert.deepEqual(rest.events.map((event: RecordedEvent) => event.revision), [100, 101, 102, 103, 104]);
    assert.equal(rest.revision, 104);
    assert.equal(rest.nextCursor, null);
  });

  it('takes a limit of 1 to 1,000, and refuses more with a 400 naming it', async () => {
    const stream = `project-${projectId}`;
    const small = await api.ok('events.stream', { stream, limit: 2 });
    assert.deepEqual(small.events.map((event: RecordedEvent) => event.revision), [0, 1]);
    const refused = await api.call('events.stream', { stream, limit: MAX_PAGE_SIZE + 1 });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.match(JSON.stringify(refused.body), /limit/);
    assert.equal((await api.call('events.stream', { stream: 'project-nope' })).status, 404);
  });
});
