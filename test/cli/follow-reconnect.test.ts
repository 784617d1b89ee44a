// `berth deployments logs --follow` when only the connection is lost (Berth restarted while the
// deployment runs): it reconnects as `events tail` does and goes on where it stopped, printing each
// line once; when it cannot reconnect it says it lost the connection, exit 1, never 3.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { finished, spawnBerth, type Run } from './berth-process.ts';

const home = mkdtempSync(join(tmpdir(), 'berth-follow-reconnect-'));
/** What each connection does, in order: the stand-in answers the n-th request with the n-th. */
let plan: Array<(response: ServerResponse) => void> = [];
let connections = 0;
const server = createServer((request, response) => {
  request.resume();
  const next = plan[connections++];
  if (!next) return void response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'UNAUTHORIZED', message: 'Token revoked' }));
  next(response);
});
const stream = (response: ServerResponse, frames: string) => response.writeHead(200, { 'content-type': 'text/event-stream' }).write(`: following\n\n${frames}`);
const lines = (...texts: string[]) => texts.map((text) => `event: line\ndata: ${text}\n\n`).join('');
const end = (status: string) => `event: end\ndata: ${JSON.stringify({ status, reason: null })}\n\n`;

before(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
after(() => {
  server.closeAllConnections();
  server.close();
  rmSync(home, { recursive: true, force: true });
});

async function follow(): Promise<Run> {
  connections = 0;
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const child = spawnBerth({ BERTH_CONFIG: join(home, 'config.json'), BERTH_URL: url, BERTH_TOKEN: 'token' }, ['deployments', 'logs', '--deployment-id', 'd1', '--follow']);
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try { return await finished(child); } finally { clearTimeout(timer); }
}

test('a stream Berth ended before the deployment did is followed again, each line printed once', async () => {
  plan = [
    (response) => { stream(response, lines('one', 'two')); setTimeout(() => response.end(), 200); },
    (response) => { stream(response, lines('one', 'two', 'three')); response.end(end('done')); },
  ];
  const run = await follow();
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, 'one\ntwo\nthree\n');
  assert.equal(connections, 2);
  assert.match(run.stderr, /reconnecting/);
});

test('a connection dropped mid-stream is followed again and a failed end still exits 3', async () => {
  plan = [
    (response) => { stream(response, lines('one')); setTimeout(() => response.socket?.destroy(), 200); },
    (response) => { stream(response, lines('one', 'two')); response.end(end('error')); },
  ];
  const run = await follow();
  assert.equal(run.code, 3, run.stderr);
  assert.equal(run.stdout, 'one\ntwo\n');
  assert.match(run.stderr, /the deployment ended error/);
});

test('a reconnection refused says the connection was lost, exit 1, not 3', async () => {
  plan = [(response) => { stream(response, lines('one')); setTimeout(() => response.socket?.destroy(), 200); }];
  const run = await follow();
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stdout, 'one\n');
  assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack trace');
  assert.match(run.stderr.trim().split('\n').at(-1)!, /^lost the connection to Berth at http:\/\/127\.0\.0\.1:\d+: .*Token revoked/);
});
