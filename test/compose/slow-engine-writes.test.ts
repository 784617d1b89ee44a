// A busy engine may take longer than the short calls' bound to create a stack's network: the
// deploy waits for it, since a write the caller gave up on would still be made (and left behind).
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { ANSWER_TIMEOUT_MS } from '@berth/shared/adapters/docker/progress';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, eventually } from '../support/engine.ts';
import { ended } from '../support/deployments.ts';
import { stacks } from '../support/stacks.ts';

const SOCKET = '/var/run/docker.sock';
const forward = (incoming: IncomingMessage, answer: ServerResponse, body?: Buffer) => {
  const upstream = request({ socketPath: SOCKET, path: incoming.url, method: incoming.method, headers: incoming.headers }, (reply) => {
    answer.writeHead(reply.statusCode ?? 500, reply.headers);
    reply.pipe(answer);
  });
  upstream.on('error', () => answer.destroy());
  // A long answer (the engine's event stream) ends with its client: the engine's side is let go too.
  answer.on('close', () => upstream.destroy());
  if (body) upstream.end(body);
  else incoming.pipe(upstream);
};

describe('an engine slow to create a stack\'s network', () => {
  let berth: TestBerth;
  // The engine, but creating a network answers only after the short calls' bound.
  const slow = createServer((incoming, answer) => {
    if (incoming.method !== 'POST' || !/\/networks\/create/.test(incoming.url ?? '')) return forward(incoming, answer);
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => setTimeout(() => forward(incoming, answer, Buffer.concat(chunks)), ANSWER_TIMEOUT_MS + 1000));
  });
  before(async () => {
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const { port } = slow.address() as { port: number };
    berth = await startBerthWithReactors({ env: { BERTH_ENGINE_SOCKET: `http://127.0.0.1:${port}` }, config: { taskStartTimeoutMs: 30_000 } });
  });
  after(async () => {
    await berth.stop();
    slow.closeAllConnections();
    slow.close();
  });

  it('deploys the stack once the engine made it, past the bound of the short calls', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'slow engine' });
    const { composeId, appName } = await berth.ok('compose.create', { name: 'slow', projectId, composeType: 'stack' });
    await berth.ok('compose.update', { composeId, composeFile: `services:\n  web:\n    image: ${TEST_IMAGE}\n    networks: [back]\nnetworks:\n  back: {}\n` });
    const deployment = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(deployment.status, 'done', deployment.reason);
    assert.deepEqual(await stacks.networks(appName), [`${appName}_back`]);
    await berth.ok('compose.delete', { composeId });
    await eventually('the stack to be removed', async () => (await stacks.networks(appName)).length === 0, 60_000);
  });
});
