// What every EventStore adapter must do, as one suite each adapter runs: `open` gives a store
// nobody else writes to during the suite (a fresh file, or a fresh server). Streams get random
// names, so a store that is not empty at the start is fine too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NewEvent, RecordedEvent } from '@berth/shared/events/event';
import { newId } from '@berth/shared/ids';
import { WrongExpectedVersionError, type EventStore, type ExpectedRevision, type Subscription } from '@berth/shared/ports/event-store';

const event = (type = 'Happened', data: Record<string, unknown> = {}): NewEvent => ({
  id: newId(),
  type,
  data,
  metadata: { actorId: null, correlationId: newId(), causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
});
export const events = (count: number, data: Record<string, unknown> = {}) =>
  Array.from({ length: count }, (_, i) => event('Happened', { ...data, i }));
export const stream = () => `conformance-${newId()}`;

/** Rejects with a WrongExpectedVersionError for `name`. */
async function refused(promise: Promise<unknown>, name: string) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof WrongExpectedVersionError, `expected WrongExpectedVersionError, got ${String(error)}`);
    assert.equal(error.stream, name);
    return true;
  });
}

/** Every event after `position`, through pages of `pageSize`. */
async function readAllAfter(store: EventStore, position: number, pageSize = 500): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll(position, pageSize);
    if (page.length === 0) return all;
    all.push(...page);
    position = page[page.length - 1]!.position;
  }
}

const deadline = 10_000;

/**
 * Collects what a subscription delivers; `until(n)` resolves once n events have arrived (never a
 * sleep), and `calls`/`concurrent` record how batches were handed over.
 */
function collector(failFirst = 0) {
  const seen: RecordedEvent[] = [];
  const batches: Array<readonly RecordedEvent[]> = [];
  let inFlight = 0;
  let concurrent = 0;
  let failures = failFirst;
  let wake: (() => void) | null = null;
  const handler = async (batch: readonly RecordedEvent[]) => {
    inFlight++;
    concurrent = Math.max(concurrent, inFlight);
    try {
      batches.push(batch);
      await new Promise((resolve) => setImmediate(resolve)); // give a second delivery the chance to overlap
      if (failures > 0) {
        failures--;
        throw new Error('handler fails once, on purpose');
      }
      seen.push(...batch);
    } finally {
      inFlight--;
      wake?.();
    }
  };
  const until = async (count: number) => {
    const end = Date.now() + deadline;
    while (seen.length < count) {
      if (Date.now() > end) throw new Error(`subscription delivered ${seen.length} of ${count} events`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 50);
      });
    }
  };
  return { seen, batches, handler, until, get concurrent() { return concurrent; } };
}

const ids = (list: ReadonlyArray<{ readonly id: string }>) => list.map((e) => e.id);

/**
 * Stops after a turn of the event loop. Stopping at the very moment a subscription reads is its
 * own test below; the other tests leave that race out so each proves one thing.
 */
async function stopLater(subscription: Subscription) {
  await new Promise((resolve) => setTimeout(resolve, 5));
  await subscription.stop();
}

/**
 * Stops `subscription`, failing when stop() has not finished within 2 s. A stuck subscription is
 * then released by one more append, so a failure here does not hang the rest of the suite.
 */
async function stopsPromptly(store: EventStore, subscription: Subscription, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const stopping = subscription.stop();
  const stopped = await Promise.race([
    stopping.then(() => true),
    new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), 2000); }),
  ]);
  clearTimeout(timer);
  if (stopped) return;
  await store.append(stream(), events(1), 'no_stream');
  await stopping;
  assert.fail(`stop() ${what} did not finish within 2 s (it waited for the next append)`);
}

export function eventStoreConformance(name: string, open: () => Promise<EventStore>): void {
  describe(`event store conformance: ${name}`, () => {
    let store: EventStore;
    before(async () => { store = await open(); });
    after(() => store.close());

    describe('append', () => {
      it("appends to a new stream with 'no_stream' and answers revision and position", async () => {
        const name = stream();
        const result = await store.append(name, events(3), 'no_stream');
        assert.equal(result.revision, 2);
        const { events: read, revision } = await store.readStream(name);
        assert.equal(revision, 2);
        assert.deepEqual(read.map((e) => e.revision), [0, 1, 2]);
        assert.equal(read[2]!.position, result.position);
        assert.equal(await store.head(), result.position);
      });

      it("refuses 'no_stream' on an existing stream and appends nothing", async () => {
        const name = stream();
        await store.append(name, events(1), 'no_stream');
        const head = await store.head();
        await refused(store.append(name, events(2), 'no_stream'), name);
        assert.equal((await store.readStream(name)).revision, 0);
        assert.equal(await store.head(), head);
      });

      it('appends at the exact revision that was read', async () => {
        const name = stream();
        await store.append(name, events(2), 'no_stream');
        const result = await store.append(name, events(2), 1);
        assert.equal(result.revision, 3);
        assert.deepEqual((await store.readStream(name)).events.map((e) => e.revision), [0, 1, 2, 3]);
      });

      for (const [label, expected] of [['behind', 0], ['ahead', 5], ['on a missing stream', 0]] as const) {
        it(`refuses a revision ${label} with WrongExpectedVersionError and appends nothing`, async () => {
          const name = stream();
          if (label !== 'on a missing stream') await store.append(name, events(2), 'no_stream');
          const before = await store.readStream(name);
          const head = await store.head();
          await refused(store.append(name, events(3), expected), name);
          assert.deepEqual(ids((await store.readStream(name)).events), ids(before.events));
          assert.equal(await store.head(), head);
        });
      }

      it("appends with 'any' whether the stream exists or not", async () => {
        const name = stream();
        assert.equal((await store.append(name, events(1), 'any')).revision, 0);
        assert.equal((await store.append(name, events(2), 'any')).revision, 2);
      });

      it('reads back type, data and metadata as appended', async () => {
        const name = stream();
        const written = event('ThingDone', { nested: { list: [1, 'two', null] }, text: 'é ü \u0000 "q"' });
        await store.append(name, [written], 'no_stream');
        const [read] = (await store.readStream(name)).events;
        assert.deepEqual({ id: read!.id, type: read!.type, data: read!.data, metadata: read!.metadata }, written);
        assert.equal(read!.stream, name);
      });

      it('reads an event stored in an older schema version in its current shape, by every read', async () => {
        // DeploymentQueued v1 carried the whole queued record; v2 only the request (shared/events/catalogue.ts).
        const request = {
          deploymentId: newId(), applicationId: 'app-1', composeId: null, kind: 'deploy', title: 'old shape', trigger: 'account',
          accountId: 'acc-1', image: null, rollbackOf: null, createdAt: '2026-01-01T00:00:00.000Z',
        };
        const v1 = { ...event('DeploymentQueued', {
          ...request, status: 'queued', revision: null, reason: null, cancelRequested: false, statusBefore: null, startedAt: null, finishedAt: null,
        }) };
        const name = `deployment-${request.deploymentId}`;
        const head = await store.head();
        await store.append(name, [v1], 'no_stream');
        const seen = collector();
        const subscription = store.subscribe(head, seen.handler);
        await seen.until(1);
        await stopLater(subscription);
        const reads = [
          (await store.readStream(name)).events[0], (await store.readAll(head, 1))[0],
          (await store.readFiltered({ stream: name }, 0, 1))[0], seen.seen[0],
        ];
        for (const read of reads) {
          assert.deepEqual(read!.data, request);
          assert.equal(read!.metadata.schemaVersion, 2);
          assert.equal(read!.id, v1.id);
        }
      });

      it('reads the events of any of several types in log order, past a position, a page at a time', async () => {
        const [one, two, other] = [`One${newId(8)}`, `Two${newId(8)}`, `Other${newId(8)}`];
        const head = await store.head();
        const written = [event(one, {}), event(other, {}), event(two, {}), event(one, {})];
        for (const each of written) await store.append(stream(), [each], 'no_stream');
        const found = await store.readFiltered({ types: [one, two] }, head, 10);
        assert.deepEqual(found.map((read) => read.id), [written[0]!.id, written[2]!.id, written[3]!.id]);
        const page = await store.readFiltered({ types: [one, two] }, found[0]!.position, 1);
        assert.deepEqual(page.map((read) => read.id), [written[2]!.id]);
        assert.deepEqual(await store.readFiltered({ types: [] }, head, 10), []);
      });

      it('reads a missing stream as empty at revision -1', async () => {
        assert.deepEqual(await store.readStream(stream()), { events: [], revision: -1 });
      });
    });

    describe('concurrency', () => {
      it('lets exactly one of 20 parallel appends at the same revision win, losing and duplicating nothing', async () => {
        const name = stream();
        await store.append(name, events(3), 'no_stream');
        const contenders = Array.from({ length: 20 }, (_, writer) => events(2, { writer }));
        const results = await Promise.allSettled(contenders.map((batch) => store.append(name, batch, 2)));
        const winners = results.flatMap((result, writer) => (result.status === 'fulfilled' ? [writer] : []));
        assert.equal(winners.length, 1);
        for (const result of results) {
          if (result.status === 'rejected') assert.ok(result.reason instanceof WrongExpectedVersionError);
        }
        const { events: read, revision } = await store.readStream(name);
        assert.equal(revision, 4);
        assert.deepEqual(read.map((e) => e.revision), [0, 1, 2, 3, 4]);
        assert.deepEqual(ids(read.slice(3)), ids(contenders[winners[0]!]!));
      });

      it('ends with exactly N events at revisions 0..N-1 when N writers re-read and retry until they succeed', async () => {
        const name = stream();
        const writers = 25;
        const attempts: number[] = [];
        const write = async (writer: number) => {
          const mine = event('Written', { writer });
          for (let attempt = 1; ; attempt++) {
            const { revision } = await store.readStream(name);
            const expected: ExpectedRevision = revision === -1 ? 'no_stream' : revision;
            try {
              await store.append(name, [mine], expected);
              attempts.push(attempt);
              return mine.id;
            } catch (error) {
              if (!(error instanceof WrongExpectedVersionError)) throw error;
              if (attempt > writers * 4) throw new Error(`writer ${writer} never got through`);
            }
          }
        };
        const written = await Promise.all(Array.from({ length: writers }, (_, writer) => write(writer)));
        const { events: read } = await store.readStream(name);
        assert.deepEqual(read.map((e) => e.revision), Array.from({ length: writers }, (_, i) => i));
        assert.deepEqual(new Set(ids(read)), new Set(written));
        assert.ok(attempts.some((count) => count > 1), 'the writers never raced: the test proves nothing');
      });

      it('keeps the other appends of a group commit when one of them conflicts', async () => {
        const [a, b, c, existing] = [stream(), stream(), stream(), stream()];
        await store.append(existing, events(1), 'no_stream');
        const head = await store.head();
        // All issued in the same tick: an adapter that batches them must still isolate each one.
        const results = await Promise.allSettled([
          store.append(a, events(2), 'no_stream'),
          store.append(existing, events(2), 'no_stream'), // conflicts: the stream exists
          store.append(b, events(1), 'no_stream'),
          store.append(b, events(1), 'no_stream'), // conflicts with the one just before it
          store.append(c, events(3), 'any'),
          store.append(existing, events(1), 7), // conflicts: wrong revision
        ]);
        assert.deepEqual(results.map((r) => r.status),
          ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled', 'rejected']);
        for (const result of results) {
          if (result.status === 'rejected') assert.ok(result.reason instanceof WrongExpectedVersionError);
        }
        assert.equal((await store.readStream(a)).revision, 1);
        assert.equal((await store.readStream(b)).revision, 0);
        assert.equal((await store.readStream(c)).revision, 2);
        assert.equal((await store.readStream(existing)).revision, 0);
        const appended = await readAllAfter(store, head);
        assert.equal(appended.length, 6);
      });
    });

    describe('the log', () => {
      it('gives strictly increasing positions across streams, in append order', async () => {
        const head = await store.head();
        const names = [stream(), stream(), stream()];
        const positions: number[] = [];
        for (let round = 0; round < 4; round++) {
          for (const name of names) {
            const result = await store.append(name, events(round + 1), 'any');
            positions.push(result.position);
          }
        }
        for (let i = 1; i < positions.length; i++) assert.ok(positions[i]! > positions[i - 1]!, `position ${i} did not grow`);
        const log = await readAllAfter(store, head);
        for (let i = 1; i < log.length; i++) assert.ok(log[i]!.position > log[i - 1]!.position);
        assert.equal(log.length, 3 * (1 + 2 + 3 + 4));
        assert.equal(log[log.length - 1]!.position, await store.head());
      });

      it('pages through readAll: pages join into the whole log, each strictly after the position given', async () => {
        const head = await store.head();
        const name = stream();
        await store.append(name, events(23), 'no_stream');
        const whole = await store.readAll(head, 1000);
        assert.equal(whole.length, 23);
        for (const pageSize of [1, 5, 7, 23, 50]) {
          assert.deepEqual(ids(await readAllAfter(store, head, pageSize)), ids(whole), `pages of ${pageSize}`);
        }
        const page = await store.readAll(whole[9]!.position, 4);
        assert.deepEqual(ids(page), ids(whole.slice(10, 14)));
        assert.deepEqual(await store.readAll(await store.head(), 10), []);
      });

      it('gives every event exactly once from any position and page size, with the server\'s own events between them', async () => {
        const head = await store.head();
        // One append each: a server that writes events of its own (EventStoreDB's $statsCollected) puts them between these.
        for (let i = 0; i < 40; i++) await store.append(stream(), events(1), 'no_stream');
        const whole = await store.readAll(head, 1000);
        assert.equal(whole.length, 40);
        assert.equal(new Set(ids(whole)).size, 40, 'no event twice');
        for (const pageSize of [1, 2, 3, 6, 10, 39]) {
          assert.deepEqual(ids(await readAllAfter(store, head, pageSize)), ids(whole), `pages of ${pageSize}`);
          for (const [at, event] of whole.entries()) {
            assert.deepEqual(ids(await store.readAll(event.position, pageSize)), ids(whole.slice(at + 1, at + 1 + pageSize)),
              `${pageSize} after event ${at}`);
          }
        }
      });
    });

    describe('subscriptions', () => {
      it('delivers, from any position P, exactly the events after P in order, caught up and then live', async () => {
        const head = await store.head();
        const names = [stream(), stream()];
        for (let i = 0; i < 6; i++) await store.append(names[i % 2]!, events(1 + (i % 3)), 'any');
        const log = await readAllAfter(store, head);
        const starts = [head, ...log.map((e) => e.position)];
        const subscribers = starts.map((position) => {
          const seen = collector();
          return { position, seen, subscription: store.subscribe(position, seen.handler) };
        });
        try {
          for (const { position, seen } of subscribers) {
            const expected = log.filter((e) => e.position > position);
            await seen.until(expected.length);
            assert.deepEqual(ids(seen.seen), ids(expected), `catch-up from ${position}`);
          }
          // Live: appended while every subscriber is waiting.
          await store.append(names[0]!, events(2), 'any');
          await Promise.all([store.append(names[1]!, events(1), 'any'), store.append(stream(), events(3), 'no_stream')]);
          const live = await readAllAfter(store, head);
          assert.equal(live.length, log.length + 6);
          for (const { position, seen } of subscribers) {
            const expected = live.filter((e) => e.position > position);
            await seen.until(expected.length);
            assert.deepEqual(ids(seen.seen), ids(expected), `live after ${position}`);
            assert.equal(seen.concurrent, 1, 'batches were delivered one at a time');
          }
        } finally {
          await Promise.all(subscribers.map(({ subscription }) => stopLater(subscription)));
        }
      });

      it('retries the same batch when the handler throws once, skipping nothing', async () => {
        const head = await store.head();
        const name = stream();
        await store.append(name, events(5), 'no_stream');
        const seen = collector(1);
        const logged = console.error;
        console.error = () => {}; // the supervisor logs the failure; expected here
        const subscription = store.subscribe(head, seen.handler);
        try {
          await seen.until(5);
          await store.append(name, events(2), 4);
          await seen.until(7);
        } finally {
          await stopLater(subscription);
          console.error = logged;
        }
        assert.deepEqual(ids(seen.seen), ids(await readAllAfter(store, head)));
        const [failed, retried] = seen.batches;
        assert.equal(retried![0]!.id, failed![0]!.id, 'the retry starts where the failed batch started');
      });

      it('stops promptly whenever stop() is called, even while it is reading the log', async () => {
        // Positions are opaque (commit positions of another log): only ones the store gave are used.
        const head = await store.head();
        await store.append(stream(), events(1), 'no_stream');
        // The race window is a few microtasks wide: stop at each offset after a delivery.
        for (let offset = 0; offset < 12; offset++) {
          let delivered!: () => void;
          const deliveredOnce = new Promise<void>((resolve) => { delivered = resolve; });
          const subscription = store.subscribe(head, async () => { delivered(); });
          await deliveredOnce;
          for (let tick = 0; tick < offset; tick++) await Promise.resolve();
          await stopsPromptly(store, subscription, `${offset} microtasks after a delivery`);
        }
      });

      it('stops delivering once stopped', async () => {
        const seen = collector();
        const subscription = store.subscribe(await store.head(), seen.handler);
        await stopsPromptly(store, subscription, 'right after subscribing');
        await store.append(stream(), events(2), 'no_stream');
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.equal(seen.seen.length, 0);
      });
    });
  });
}
