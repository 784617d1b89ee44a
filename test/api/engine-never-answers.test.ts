// A container engine that takes the connection and never answers is an outage too: the operations
// that ask it answer 503 UNAVAILABLE within the bound on a short engine call, never hang.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

/** The adapter gives a short engine call 10 s; the answer comes soon after. */
const BOUND_MS = 15_000;

describe('a container engine that accepts connections and never answers', () => {
  let berth: TestBerth;
  let silent: Server;
  const sockets = new Set<Socket>();
  before(async () => {
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('data', () => {});
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    berth = await startBerth({ env: { BERTH_ENGINE_SOCKET: `http://127.0.0.1:${port}` } });
  });
  after(async () => {
    await berth.stop();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('answers every engine view with 503 UNAVAILABLE and a retry-after within the bound', async () => {
    const asks: Array<[string, Record<string, unknown>]> = [
      ['cluster.getNodes', {}],
      ['cluster.addWorker', {}],
      ['container.getContainers', {}],
      ['container.getConfig', { containerId: 'abc123' }],
    ];
    const started = Date.now();
    const answers = await Promise.all(asks.map(async ([operation, input]) => {
      // Without a bound the call never ends: a timer of our own ends the test's wait instead.
      const waited = new Promise<'no answer'>((resolve) => setTimeout(resolve, BOUND_MS, 'no answer').unref());
      return [operation, await Promise.race([berth.call(operation, input), waited])] as const;
    }));
    for (const [operation, answer] of answers) {
      assert.notEqual(answer, 'no answer', `${operation} did not answer`);
      if (answer === 'no answer') continue;
      assert.equal(answer.status, 503, `${operation}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.code, 'UNAVAILABLE');
      assert.match(answer.body.message, /container engine cannot be reached; try again/);
      assert.ok(Array.isArray(answer.body.issues));
      assert.equal(answer.headers['retry-after'], '1');
    }
    assert.ok(Date.now() - started < BOUND_MS);
  });
});
