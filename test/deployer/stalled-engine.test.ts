// A container engine that stalls during a deployment's pull (takes the request, starts its answer,
// then says nothing more and answers nothing else) does not leave the deployment `running`: it
// fails as the engine unavailable once the stream's silence and an unanswered ping say so, and a
// cancellation ends it at once. The engine here is the real one, behind a proxy that can stall it.
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { after, describe, it } from 'node:test';
import { ANSWER_TIMEOUT_MS, PROGRESS_IDLE_MS } from '@berth/shared/adapters/docker/progress';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { ended } from '../support/deployments.ts';
import { TEST_IMAGE, eventually, removeDeployed } from '../support/engine.ts';

const SOCKET = '/var/run/docker.sock';
/** The stream's silence, then the ping's bound, and some slack for the reactors' turns. */
const BOUND_MS = PROGRESS_IDLE_MS + ANSWER_TIMEOUT_MS + 5000;

interface StallingEngine {
  readonly address: string;
  /** Resolves once a pull was asked and the engine stalled on it. */
  stalled(): Promise<void>;
  /** Answers what was held, and forwards everything again. */
  restore(): void;
  stop(): Promise<void>;
}

/**
 * The real engine over HTTP, which stalls at the first pull: that pull's answer starts (a first
 * progress line) and then says nothing, and every request after it is held unanswered, a ping too.
 */
async function stallingEngine(): Promise<StallingEngine> {
  let stalled = false;
  /** Only the first pull stalls: the engine, once back, answers the next one. */
  let armed = true;
  let onStall = () => {};
  const whenStalled = new Promise<void>((resolve) => { onStall = resolve; });
  const held: Array<() => void> = [];
  const forward = (incoming: IncomingMessage, answer: ServerResponse) => {
    // A held request whose client gave up meanwhile is not sent on: nothing would end its answer.
    if (!answer.socket || answer.socket.destroyed) return;
    const upstream = request({ socketPath: SOCKET, path: incoming.url, method: incoming.method, headers: incoming.headers }, (reply) => {
      answer.writeHead(reply.statusCode ?? 500, reply.headers);
      reply.pipe(answer);
    });
    upstream.on('error', () => answer.destroy());
    // A stream the engine keeps open (events, logs) ends with its client, or it holds this process.
    answer.on('close', () => upstream.destroy());
    incoming.pipe(upstream);
  };
  const server: Server = createServer((incoming, answer) => {
    answer.on('error', () => {});
    if (armed && /\/images\/create\?/.test(incoming.url ?? '')) {
      armed = false;
      stalled = true;
      answer.writeHead(200, { 'content-type': 'application/json' });
      answer.write(`${JSON.stringify({ status: 'Pulling from berth-test/httpd' })}\n`);
      held.push(() => answer.end());
      onStall();
      return;
    }
    if (stalled) held.push(() => forward(incoming, answer));
    else forward(incoming, answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    address: `http://127.0.0.1:${port}`,
    stalled: () => whenStalled,
    restore() {
      stalled = false;
      for (const release of held.splice(0)) release();
    },
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('a container engine that stalls during a deployment\'s pull', () => {
  const apps: string[] = [];
  after(() => removeDeployed(apps));

  /** A Berth on its own stalling engine, and an application of the test image. */
  const setUp = async (config: { actionWaitMs?: number } = {}) => {
    const engine = await stallingEngine();
    const berth: TestBerth = await startBerthWithReactors({ env: { BERTH_ENGINE_SOCKET: engine.address }, config });
    const { projectId } = await berth.ok('project.create', { name: 'stalled engine' });
    const { applicationId, appName } = await berth.ok('application.create', { name: 'web', projectId });
    apps.push(appName);
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: TEST_IMAGE });
    const done = async () => {
      engine.restore();
      await berth.stop();
      await engine.stop();
    };
    return { engine, berth, applicationId, done };
  };

  it('fails the deployment as the engine unavailable within the bound, and frees the service\'s turn', async () => {
    const { engine, berth, applicationId, done } = await setUp();
    try {
      const { deploymentId } = await berth.ok('application.deploy', { applicationId });
      await engine.stalled();
      const stalledAt = Date.now();
      const deployment = await eventually('the deployment to end', async () => {
        const found = await berth.ok('deployment.one', { deploymentId });
        return ['done', 'error', 'cancelled'].includes(found.status) ? found : null;
      }, BOUND_MS);
      assert.ok(Date.now() - stalledAt < BOUND_MS);
      assert.equal(deployment.status, 'error');
      assert.match(deployment.reason, /container engine cannot be reached: it sent nothing for \d+ s and did not answer a ping/);
      // The service's status follows the deployment's end, a moment later.
      await eventually('the application in error', async () => (await berth.ok('application.one', { applicationId })).applicationStatus === 'error');
      const { log } = await berth.ok('deployment.logs', { deploymentId });
      assert.match(log, /Failed: The container engine cannot be reached/);

      // The engine back, the service's next deployment runs: the stalled one held nothing.
      engine.restore();
      const next = await berth.ok('application.deploy', { applicationId });
      const { status, reason } = await ended(berth, next.deploymentId);
      assert.equal(status, 'done', reason);
    } finally {
      await done();
    }
  });

  it('ends a deployment stalled in its pull at once when it is cancelled', async () => {
    // The cancel waits for the deployment's end longer than the stall's own bound: it must not need it.
    const { engine, berth, applicationId, done } = await setUp({ actionWaitMs: BOUND_MS });
    try {
      const { deploymentId } = await berth.ok('application.deploy', { applicationId });
      await engine.stalled();
      const asked = Date.now();
      const cancelled = await berth.call('deployment.cancel', { deploymentId });
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
      assert.equal(cancelled.body.status, 'cancelled');
      assert.ok(Date.now() - asked < PROGRESS_IDLE_MS / 2, `the cancel took ${Date.now() - asked} ms`);
      await eventually('the application out of running', async () => (await berth.ok('application.one', { applicationId })).applicationStatus !== 'running');
    } finally {
      await done();
    }
  });
});
