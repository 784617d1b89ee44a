// `berth deployments logs --follow` against a stand-in Berth that streams the log as
// deployment-logs.ts does: the CLI must print each line as it arrives (the stand-in holds the rest
// back until the first line is out), never the `end` event, and fail when the deployment did.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { finished, spawnBerth } from './berth-process.ts';

const home = mkdtempSync(join(tmpdir(), 'berth-follow-'));
const queries: URLSearchParams[] = [];
/** The open stream, its first line sent. */
let heldResponse: ServerResponse | null = null;
const server = createServer((request, response) => {
  request.resume();
  queries.push(new URL(request.url ?? '', 'http://berth').searchParams);
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
  response.write(': following\n\nevent: line\ndata: Pulling x\n\n');
  heldResponse = response;
});

before(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
after(() => {
  server.close();
  rmSync(home, { recursive: true, force: true });
});

/** Runs the command; once its first line is printed, the stand-in sends the rest and ends with `end`. */
async function follow(end: { status: string; reason: string | null }, ...flags: string[]) {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const child = spawnBerth({ BERTH_CONFIG: join(home, 'config.json'), BERTH_URL: url, BERTH_TOKEN: 'token' }, ['deployments', 'logs', '--deployment-id', 'd1', ...flags]);
  const run = finished(child);
  let printed = '';
  const firstLine = new Promise<boolean>((resolve) => child.stdout.on('data', (chunk: Buffer) => {
    printed += chunk;
    if (printed.includes('Pulling x\n')) resolve(true);
  }));
  // Bounded: a CLI that waits for the whole answer would otherwise wait forever.
  const gaveUp = new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000).unref());
  const printedBeforeTheEnd = await Promise.race([firstLine, run.then(() => false), gaveUp]);
  heldResponse?.end(`event: line\ndata: build done\n\nevent: end\ndata: ${JSON.stringify(end)}\n\n`);
  heldResponse = null;
  return { ...(await run), printedBeforeTheEnd };
}

test('a bare --follow prints the log line by line as it arrives and exits 0 when the deployment is done', async () => {
  const run = await follow({ status: 'done', reason: null }, '--follow');
  assert.equal(run.code, 0, run.stderr);
  assert.ok(run.printedBeforeTheEnd, 'the first line was printed while the stream was still open');
  assert.equal(run.stdout, 'Pulling x\nbuild done\n');
  assert.equal(queries.at(-1)?.get('follow'), 'true');
});

test('--follow true does the same; a failed deployment exits 3 saying why, the end event not printed', async () => {
  const run = await follow({ status: 'error', reason: 'the build failed' }, '--follow', 'true');
  assert.equal(run.code, 3, run.stderr);
  assert.ok(run.printedBeforeTheEnd);
  assert.equal(run.stdout, 'Pulling x\nbuild done\n');
  assert.match(run.stderr, /^the deployment ended error: the build failed$/m);
});

test('a cancelled deployment exits 3 too', async () => {
  const run = await follow({ status: 'cancelled', reason: null }, '--follow');
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr, /ended cancelled/);
});
