import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '../events/event.ts';
import { Signal } from './signal.ts';
import { supervise } from './supervised.ts';

/** A log in memory whose `changed()` resolves only when something is appended: it never polls. */
function memoryLog(batchSize: number) {
  const events: RecordedEvent[] = [];
  const appended = new Signal();
  let reads = 0;
  return {
    get reads() { return reads; },
    append(count: number) {
      for (let i = 0; i < count; i++) {
        const position = events.length + 1;
        events.push({ id: `e${position}`, type: 'Test', data: {}, metadata: {} as RecordedEvent['metadata'], stream: 's-1', revision: position - 1, position });
      }
      appended.notify();
    },
    source: {
      batchSize,
      async read(after: number) {
        reads++;
        return events.slice(after, after + batchSize);
      },
      changed: () => appended.wait(),
    },
  };
}

const within = <T>(promise: Promise<T>, ms: number, what: string) => Promise.race([
  promise,
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms).unref()),
]);

/** Waits, a turn of the event loop at a time, until `seen` holds `count` events; fails after a second. */
async function untilSeen(seen: readonly number[], count: number): Promise<void> {
  const deadline = Date.now() + 1000;
  while (seen.length < count) {
    if (Date.now() > deadline) throw new Error(`${seen.length} of ${count} events delivered within 1000 ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('a supervised subscription', () => {
  it('delivers an event appended while its handler runs, with no poll to wake it', async () => {
    const log = memoryLog(100);
    log.append(1);
    const seen: number[] = [];
    let secondDelivered!: () => void;
    const second = new Promise<void>((resolve) => { secondDelivered = resolve; });
    const subscription = supervise(log.source, 0, async (batch) => {
      seen.push(...batch.map((event) => event.position));
      // The append lands after the read that found event 1 and before the subscriber waits again.
      if (seen.length === 1) log.append(1);
      else secondDelivered();
    });
    try {
      await within(second, 1000, 'the second event was not delivered');
    } finally {
      await subscription.stop();
    }
    assert.deepEqual(seen, [1, 2]);
  });

  it('reads the log once per wake-up when it is caught up, not once more after every batch', async () => {
    const log = memoryLog(100);
    const seen: number[] = [];
    const subscription = supervise(log.source, 0, async (batch) => { seen.push(...batch.map((event) => event.position)); });
    try {
      for (let i = 0; i < 5; i++) {
        log.append(3);
        await untilSeen(seen, 3 * (i + 1));
      }
    } finally {
      await subscription.stop();
    }
    assert.deepEqual(seen, Array.from({ length: 15 }, (_, i) => i + 1));
    assert.equal(log.reads, 6, 'the first read, then one per append');
  });

  it('reads full batches back to back while it catches up', async () => {
    const log = memoryLog(10);
    log.append(35);
    const seen: number[] = [];
    const subscription = supervise(log.source, 0, async (batch) => { seen.push(...batch.map((event) => event.position)); });
    try {
      await untilSeen(seen, 35);
    } finally {
      await subscription.stop();
    }
    assert.deepEqual(seen, Array.from({ length: 35 }, (_, i) => i + 1));
    assert.equal(log.reads, 4);
  });
});

describe('an idle supervised subscription', () => {
  it('keeps its memory flat however often it polls (nothing accumulates on its stop signal)', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let reads = 0;
    // A log that never changes and a poll that answers at once: every turn is an idle poll.
    const source = { batchSize: 100, read: async () => { reads++; return []; }, changed: () => new Promise<void>((resolve) => setImmediate(resolve)) };
    const subscription = supervise(source, 0, async () => {});
    const pollsUntil = async (count: number) => { while (reads < count) await new Promise((resolve) => setTimeout(resolve, 5)); };
    await pollsUntil(2_000);
    gc();
    const before = process.memoryUsage().heapUsed;
    await pollsUntil(102_000);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    await subscription.stop();
    assert.ok(grown < 2 * 1024 * 1024, `the heap grew ${(grown / 1024 / 1024).toFixed(1)} MB over 100,000 idle polls`);
  });
});
