// A build, pull or push stream of the engine: followed as long as it progresses, however long that
// is; one gone silent while the engine does not answer a ping either fails as an outage, and the
// caller's cancellation ends it at once. Small bounds stand in for the adapter's own.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { followStream } from '@berth/shared/adapters/docker/progress';
import { isUnavailable } from '@berth/shared/ports/unavailable';

const IDLE_MS = 100;

/** A ping the engine never answers: what `answered` makes of one, at once. */
const gone = async () => { throw new Error('it took the request but gave no answer within 10 s'); };
/** A ping the engine answers. */
const there = async () => {};

const progressLine = (status: string) => `${JSON.stringify({ status })}\n`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('following a progress stream of the engine', () => {
  it('follows a stream that keeps sending, for longer than the bound, to its end', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    const sending = (async () => {
      for (let i = 0; i < 15; i++) {
        stream.write(progressLine(`layer ${i}`));
        await sleep(IDLE_MS / 3);
      }
      stream.end();
    })();
    const started = Date.now();
    await followStream(async () => stream, { onLine: (line) => lines.push(line), alive: gone, idleMs: IDLE_MS });
    await sending;
    assert.ok(Date.now() - started > 3 * IDLE_MS, 'it ran past the bound');
    assert.equal(lines.length, 15);
  });

  it('fails a stream gone silent, the engine not answering a ping, as the engine unavailable', async () => {
    const stream = new PassThrough();
    stream.write(progressLine('Pulling from berth-test/httpd'));
    const started = Date.now();
    const failure = await followStream(async () => stream, { alive: gone, idleMs: IDLE_MS }).then(() => null, (error: unknown) => error);
    assert.ok(isUnavailable(failure), `not an outage: ${String(failure)}`);
    assert.match((failure as Error).message, /container engine cannot be reached: it sent nothing for 0.1 s and did not answer a ping/);
    assert.ok(Date.now() - started < 10 * IDLE_MS);
    assert.equal(stream.destroyed, true, 'the answer is dropped');
  });

  it('fails a request whose answer never starts the same way, its request aborted', async () => {
    let request: AbortSignal | null = null;
    const failure = await followStream((abortSignal) => {
      request = abortSignal;
      // As the engine's client does: the request's abort rejects it.
      return new Promise<NodeJS.ReadableStream>((_resolve, reject) => abortSignal.addEventListener('abort', () => reject(new Error('aborted'))));
    }, { alive: gone, idleMs: IDLE_MS }).then(() => null, (error: unknown) => error);
    assert.ok(isUnavailable(failure), `not an outage: ${String(failure)}`);
    assert.equal(request!.aborted, true);
  });

  it('waits on a silent stream while the engine answers its pings (a build step that prints nothing)', async () => {
    const stream = new PassThrough();
    let pings = 0;
    setTimeout(() => { stream.end(progressLine('Successfully built')); }, 5 * IDLE_MS);
    await followStream(async () => stream, { alive: async () => { pings += 1; }, idleMs: IDLE_MS });
    assert.ok(pings >= 2, `pinged ${pings} times`);
  });

  it('ends at once when the caller cancels, throwing its reason, and asks the engine nothing more', async () => {
    const stream = new PassThrough();
    const cancel = new AbortController();
    let request: AbortSignal | null = null;
    setTimeout(() => cancel.abort(new Error('cancelled')), IDLE_MS / 2);
    const started = Date.now();
    const failure = await followStream(async (abortSignal) => { request = abortSignal; return stream; },
      { signal: cancel.signal, alive: there, idleMs: 60_000 }).then(() => null, (error: unknown) => error);
    assert.equal((failure as Error).message, 'cancelled');
    assert.ok(Date.now() - started < 1000);
    assert.equal(request!.aborted, true, 'the request is aborted');
    assert.equal(stream.destroyed, true);
  });

  it('still fails with the engine\'s own error line', async () => {
    const stream = new PassThrough();
    stream.end(`${JSON.stringify({ error: 'manifest unknown', errorDetail: { message: 'manifest unknown' } })}\n`);
    await assert.rejects(followStream(async () => stream, { alive: there, idleMs: IDLE_MS }), { name: 'EngineError', message: 'manifest unknown' });
  });
});
