import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Signal, untilAny } from './signal.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('a signal', () => {
  it('wakes the waits made before a notify, and not one made after it', async () => {
    const signal = new Signal();
    let woken = 0;
    void signal.wait().then(() => woken++);
    void signal.wait().then(() => woken++);
    signal.notify();
    void signal.wait().then(() => woken++);
    await turn();
    assert.equal(woken, 2);
    assert.equal(signal.waiting, 1);
  });

  it('ends a wait at its timeout and forgets it', async () => {
    const signal = new Signal();
    const started = Date.now();
    // Held: by default the timer does not keep a process alive, and here nothing else would.
    await untilAny([signal], { timeoutMs: 30, holdProcess: true });
    assert.ok(Date.now() - started >= 25);
    assert.equal(signal.waiting, 0);
  });

  it('ends a wait on several signals at the first notify, and leaves none of them holding it', async () => {
    const stop = new Signal();
    const work = new Signal();
    for (let i = 0; i < 1000; i++) {
      const waited = untilAny([work, stop]);
      work.notify();
      await waited;
    }
    assert.equal(stop.waiting, 0, 'a stop signal that never fires holds nothing of the waits it took part in');
    assert.equal(work.waiting, 0);
  });

  it('ends a wait when the promise it was given settles, fulfilled or rejected, and forgets it', async () => {
    const stop = new Signal();
    await untilAny([stop], { settled: Promise.resolve() });
    await untilAny([stop], { settled: Promise.reject(new Error('gone')) });
    assert.equal(stop.waiting, 0);
  });
});
