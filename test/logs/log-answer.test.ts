// deployment.logs (not followed) answers `{ deploymentId, status, log }`, the log written out as the
// file is read: a log of a hundred megabytes is not held whole (nor twice, as text and as JSON)
// for the request, and every character (quotes, escapes, control characters, multi-byte) comes back as written.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { deploymentLogsOf } from '@berth/shared/adapters/deployment-logs';
import { startBerth, type TestBerth } from '../support/berth.ts';

/** What this process holds: the JS heap and the buffers outside it. */
const held = () => { const { heapUsed, arrayBuffers } = process.memoryUsage(); return heapUsed + arrayBuffers; };

describe('deployment.logs: the log so far', () => {
  let berth: TestBerth;
  let deploymentId: string;
  before(async () => {
    berth = await startBerth(); // no reactors: the deployment stays queued, its log written here
    const { projectId } = await berth.ok('project.create', { name: 'logs' });
    const { applicationId } = await berth.ok('application.create', { name: 'logs', projectId });
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'logs:1' });
    ({ deploymentId } = await berth.ok('application.deploy', { applicationId }));
  });
  after(() => berth.stop());

  it('answers the log as written, with the deployment\'s id and status', async () => {
    const writer = deploymentLogsOf(berth.dataDir).writer(deploymentId, []);
    const lines = ['plain', 'quotes " and \\ backslash', 'tab\tbell\u0007 cr\r', 'é€ 𝄞 multi-byte', 'x'.repeat(200_000)];
    for (const line of lines) writer.line(line);
    const answer = await berth.call('deployment.logs', { deploymentId });
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers['content-type']), /^application\/json/);
    assert.deepEqual(answer.body, { deploymentId, status: 'queued', log: lines.map((line) => `${line}\n`).join('') });
  });

  it('answers an unknown deployment 404 in the error shape', async () => {
    const answer = await berth.call('deployment.logs', { deploymentId: 'no-such-deployment' });
    assert.equal(answer.status, 404);
    assert.equal(answer.body.code, 'NOT_FOUND');
  });

  it('holds a bounded part of a 96 MB log while answering it', async () => {
    const writer = deploymentLogsOf(berth.dataDir).writer(deploymentId, []);
    const line = `${'é'.repeat(500)}${'q'.repeat(1000)}`;
    for (let index = 0; index < 48_000; index++) writer.line(line);
    await berth.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = berth.app.server.address() as AddressInfo;
    global.gc?.();
    const base = held();
    let peak = base;
    const sample = setInterval(() => { peak = Math.max(peak, held()); }, 2);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/deployment.logs?deploymentId=${deploymentId}`, { headers: { authorization: `Bearer ${berth.token}` } });
      assert.equal(response.status, 200);
      let bytes = 0;
      let tail = '';
      const decoder = new TextDecoder();
      for await (const chunk of response.body!) {
        bytes += chunk.length;
        tail = (tail + decoder.decode(chunk, { stream: true })).slice(-100);
        peak = Math.max(peak, held());
      }
      assert.ok(bytes > 96_000_000, `${bytes} bytes answered`);
      assert.ok(tail.endsWith(`${'q'.repeat(10)}\\n"}`), 'the answer ends as the JSON document does');
    } finally {
      clearInterval(sample);
    }
    const grew = peak - base;
    assert.ok(grew < 64 * 1024 * 1024, `${(grew / 2 ** 20).toFixed(0)} MB more held while answering a ${(48_000 * 2001 / 1e6).toFixed(0)} MB log`);
  });
});
