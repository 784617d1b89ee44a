// What `berth` prints for answers with long values, against a stand-in Berth: the log operation
// prints the log itself, whole; one record prints every value whole (one on several lines under
// its key, indented); a table may cut a cell, and ends a cut one with `…`.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runBerth } from './berth-process.ts';
import { standIn } from './stand-in.ts';

const LOG = [
  'Deploy of web-91a6cd (deploy) started Pulling berth-registry.example:5000/shop/web:0123456789abcdef0123456789abcdef',
  'Step 2/9 : RUN npm ci --omit=dev --no-audit --no-fund --prefer-offline --loglevel=error',
  'done',
].join('\n');
const ENV = 'DATABASE_URL=postgres://shop:a-long-password-here@db.internal:5432/shop?sslmode=require\nFEATURE_FLAGS=checkout,search,recommendations';
const COMMAND = 'node server.js --port 8080 --workers 4 --log-format json --trust-proxy 10.0.0.0/8';
const LONG_NAME = 'a project whose name is far longer than any table column would show';

const berth = standIn({
  'deployment.logs': { status: 200, body: { deploymentId: 'd1', status: 'done', log: `${LOG}\n` } },
  'application.one': { status: 200, body: { applicationId: 'a1', name: 'web', env: ENV, command: COMMAND, ports: [] } },
  'project.all': { status: 200, body: [{ projectId: 'p1', name: LONG_NAME }, { projectId: 'p2', name: 'shop' }] },
});
const home = mkdtempSync(join(tmpdir(), 'berth-output-'));
const run = (...args: string[]) => runBerth({ BERTH_CONFIG: join(home, 'config.json'), BERTH_URL: berth.url(), BERTH_TOKEN: 'token' }, ...args);

before(() => berth.start());
after(async () => {
  await berth.stop();
  rmSync(home, { recursive: true, force: true });
});

test('deployment logs without --follow prints the log text itself, whole; --json the whole answer', async () => {
  for (const group of ['deployment', 'deployments']) {
    const logs = await run(group, 'logs', '--deployment-id', 'd1');
    assert.equal(logs.code, 0, logs.stderr);
    assert.equal(logs.stdout, `${LOG}\n`);
  }
  const json = await run('deployment', 'logs', '--deployment-id', 'd1', '--json');
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout), { deploymentId: 'd1', status: 'done', log: `${LOG}\n` });
});

test('one record prints every value whole, a value of several lines on indented lines under its key', async () => {
  const one = await run('application', 'one', '--application-id', 'a1');
  assert.equal(one.code, 0, one.stderr);
  const lines = one.stdout.split('\n');
  assert.ok(lines.some((line) => /^command\s+/.test(line) && line.endsWith(COMMAND)), one.stdout);
  const at = lines.findIndex((line) => line.trim() === 'env');
  assert.ok(at >= 0, `env has a line of its own:\n${one.stdout}`);
  assert.deepEqual(lines.slice(at + 1, at + 3), ENV.split('\n').map((line) => `    ${line}`));
  assert.doesNotMatch(one.stdout, /…/);
});

test('a table cuts a long cell to 48 characters, the last one `…`, and leaves short ones alone', async () => {
  const all = await run('project', 'all');
  assert.equal(all.code, 0, all.stderr);
  const row = all.stdout.split('\n').find((line) => line.startsWith('p1'))!;
  const shown = row.replace(/^p1\s+/, '').trimEnd();
  assert.equal(shown, `${LONG_NAME.slice(0, 47)}…`);
  assert.match(all.stdout, /^p2\s+shop$/m);
});
