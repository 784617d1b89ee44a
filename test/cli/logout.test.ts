// `berth logout` forgets the saved token whatever the server answers: one it refuses (expired,
// revoked) was dead already, so that is noted, not a failure. A stand-in Berth answers each case.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runBerth } from './berth-process.ts';

const home = mkdtempSync(join(tmpdir(), 'berth-logout-'));
const config = join(home, 'config.json');
let answer = { status: 200, body: 'true' };
const server = createServer((request, response) => {
  request.resume();
  response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
});

before(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
after(() => {
  server.close();
  rmSync(home, { recursive: true, force: true });
});

async function logout(status: number, body: object | boolean) {
  answer = { status, body: JSON.stringify(body) };
  writeFileSync(config, JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 'secret-token' }));
  const run = await runBerth({ BERTH_CONFIG: config, BERTH_URL: '', BERTH_TOKEN: '' }, 'logout');
  return { ...run, saved: JSON.parse(readFileSync(config, 'utf8')) as { token: string | null } };
}

test('signs out and forgets the token', async () => {
  const run = await logout(200, true);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.saved.token, null);
});

test('a token the server refuses (401) is forgotten too, with a note, and exits 0', async () => {
  const run = await logout(401, { code: 'UNAUTHORIZED', message: 'token expired', issues: [] });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.saved.token, null);
  assert.match(run.stdout, /signed out/);
  assert.match(run.stderr, /note: .*token expired/);
});

test('any other failure is reported and exits 1, the token forgotten all the same', async () => {
  const run = await logout(500, { code: 'INTERNAL_SERVER_ERROR', message: 'boom', issues: [] });
  assert.equal(run.code, 1);
  assert.equal(run.saved.token, null);
  assert.match(run.stderr, /^500 INTERNAL_SERVER_ERROR: boom/);
});
