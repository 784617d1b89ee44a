// An engine whose event streams stall without ending (a hung engine, a half-open connection) says
// nothing of a service scaled to 0 or removed behind Berth's back: the engine watch's recheck
// (BERTH_ENGINE_RECHECK_MS) still shows it, `error` within that time. On the real engine, reached
// over HTTP through a proxy that answers every `/events` request's headers and then nothing.
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { deployedService, engineChanges, operator, removeDeployed, statusIs } from './drift-services.ts';

const SOCKET = '/var/run/docker.sock';
const RECHECK_MS = 3_000;

/** The real engine over HTTP, but every event stream it opens stays silent. */
async function silentEventsEngine(): Promise<{ url: string; eventStreams: () => number; stop: () => Promise<void> }> {
  let eventStreams = 0;
  const server: Server = createServer((incoming, answer) => {
    answer.on('error', () => {});
    const silent = /^\/(v[\d.]+\/)?events\b/.test(incoming.url ?? '');
    const upstream = request({ socketPath: SOCKET, path: incoming.url, method: incoming.method, headers: incoming.headers }, (reply) => {
      answer.writeHead(reply.statusCode ?? 500, reply.headers);
      if (silent) {
        eventStreams++;
        answer.flushHeaders();
      } else {
        reply.pipe(answer);
      }
    });
    upstream.on('error', () => answer.destroy());
    answer.on('close', () => upstream.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `tcp://127.0.0.1:${port}`,
    eventStreams: () => eventStreams,
    stop: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

describe('the engine watch when the engine\'s events go silent', { timeout: 180_000 }, () => {
  let engine: Awaited<ReturnType<typeof silentEventsEngine>>;
  let berth: TestBerth;
  let projectId: string;
  const names: string[] = [];
  before(async () => {
    engine = await silentEventsEngine();
    berth = await startBerthWithReactors({ config: { engineSocket: engine.url, engineRecheckMs: RECHECK_MS, actionWaitMs: 60_000, taskStartTimeoutMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'silent events' }));
  });
  after(async () => {
    try {
      await removeDeployed(names, []);
    } finally {
      await berth.stop();
      await engine.stop();
    }
  });

  it('shows an application scaled to 0, then removed, behind Berth\'s back as error by its recheck, with no event heard', async () => {
    const service = await deployedService(berth, 'application', projectId, names);
    assert.ok(engine.eventStreams() >= 2, 'the watch opened its event streams, which say nothing');

    const scaled = Date.now();
    await operator('scale', '--detach', `${service.engineName}=0`);
    await statusIs(berth, service, 'error');
    const seenAfterMs = Date.now() - scaled;
    assert.ok(seenAfterMs < RECHECK_MS + 10_000, `seen after ${seenAfterMs} ms, the recheck every ${RECHECK_MS}`);

    await operator('scale', '--detach', `${service.engineName}=1`);
    await statusIs(berth, service, 'done');
    await operator('rm', service.engineName);
    await statusIs(berth, service, 'error');
    assert.deepEqual((await engineChanges(berth, service)).map((change) => change.split(':')[1]), ['no-replicas', 'replicas', 'missing']);
  });
});
