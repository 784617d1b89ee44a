// Requests the HTTP parser refuses before any route sees them are answered in the spec's error
// shape too, like every other refusal.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { listeningBerth, type ListeningBerth } from '../support/http.ts';

/** Sends `raw` on a fresh connection; answers everything the server wrote before it closed. */
function exchange(baseUrl: string, raw: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(raw));
    let received = '';
    socket.on('data', (chunk) => { received += chunk.toString('utf8'); });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

describe('requests the HTTP parser refuses', () => {
  let server: ListeningBerth;
  before(async () => { server = await listeningBerth(); });
  after(() => server.stop());

  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

  it('answers headers past 16 KB with 431 in the error shape', async () => {
    const answer = await exchange(server.baseUrl, `GET /api/events.all?stream=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 431 /);
    const body = bodyOf(answer);
    assert.equal(body.code, 'HEADERS_TOO_LARGE');
    assert.match(body.message, /too large/);
    assert.ok(Array.isArray(body.issues));
  });

  it('answers a request that is not HTTP with 400 in the error shape', async () => {
    const answer = await exchange(server.baseUrl, 'NOT HTTP AT ALL\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.equal(bodyOf(answer).code, 'BAD_REQUEST');
  });

  it('still answers the next request on a new connection', async () => {
    assert.equal((await server.client.raw('/health')).status, 200);
  });
});
