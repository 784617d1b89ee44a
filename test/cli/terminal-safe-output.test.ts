// What tables and records show, against a stand-in Berth: a name holding control characters
// (escape sequences that would clear a screen or set a title) is shown escaped, never raw, while
// --json stays exact JSON; columns line up by characters, not UTF-16 units; and a table picks the
// columns that say something (no column empty in every row, informative fields before other ids).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runBerth } from './berth-process.ts';
import { standIn } from './stand-in.ts';

const EVIL = 'evil\u001b[2J\u001b[31mRED\u001b]0;pwned\u0007\u009b\u007f';
const deployment = (deploymentId: string, kind: string, reason: string | null) => ({
  deploymentId, applicationId: 'a1', composeId: null, databaseId: null, databaseType: null, kind, status: 'done', title: 'Deploy',
  trigger: 'manual', accountId: 'u1', revision: null, image: null, rollbackOf: null, reason, cancelRequested: false,
  statusBefore: null, createdAt: '2026-01-01T00:00:00.000Z', startedAt: null, finishedAt: null,
});
const berth = standIn({
  'project.all': { status: 200, body: [{ projectId: 'p1', name: EVIL, description: 'd' }, { projectId: 'p2', name: '😀😀 wide', description: 'd' }, { projectId: 'p3', name: 'shop', description: 'd' }] },
  'project.one': { status: 200, body: { projectId: 'p1', name: EVIL, description: `line one\n\u001b]0;title\u0007line two`, env: { [`K\u001b`]: 'v' } } },
  'deployment.all': { status: 200, body: [deployment('d1', 'deploy', null), deployment('d2', 'rollback', 'the build failed')] },
});
const home = mkdtempSync(join(tmpdir(), 'berth-safe-output-'));
const run = (...args: string[]) => runBerth({ BERTH_CONFIG: join(home, 'config.json'), BERTH_URL: berth.url(), BERTH_TOKEN: 'token' }, ...args);
/** C0 and C1 control characters and DEL, but the line ends a table or record is made of. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

before(() => berth.start());
after(async () => {
  await berth.stop();
  rmSync(home, { recursive: true, force: true });
});

test('control characters in a table are shown escaped, never raw', async () => {
  const table = await run('project', 'all');
  assert.equal(table.code, 0, table.stderr);
  assert.doesNotMatch(table.stdout, CONTROL);
  assert.ok(table.stdout.includes('evil\\e[2J\\e[31mRED\\e]0;pwned\\u0007\\u009b\\u007f'), table.stdout);
});

test('control characters in a record are shown escaped, its lines kept', async () => {
  const record = await run('project', 'one', '--project-id', 'p1');
  assert.equal(record.code, 0, record.stderr);
  assert.doesNotMatch(record.stdout, CONTROL);
  assert.match(record.stdout, /^ {4}line one$/m);
  assert.match(record.stdout, /^ {4}\\e\]0;title\\u0007line two$/m);
});

test('--json stays exact JSON', async () => {
  const json = await run('project', 'all', '--json');
  assert.equal(json.code, 0, json.stderr);
  assert.equal(JSON.parse(json.stdout)[0].name, EVIL);
});

test('table columns line up by characters, an emoji counted as one', async () => {
  const table = await run('project', 'all');
  const lines = table.stdout.trimEnd().split('\n');
  // Where the third column starts, in characters (code points), on the header and each row.
  const thirdAt = (line: string) => [...line].length - [...line.replace(/^\S+\s+\S+(?: \S+)*\s{2,}/u, '')].length;
  const starts = [lines[0]!, ...lines.slice(2)].map(thirdAt);
  assert.equal(new Set(starts).size, 1, `${starts}\n${table.stdout}`);
});

test('a table leaves out columns empty in every row and shows the informative ones before other ids', async () => {
  const table = await run('deployment', 'all', '--application-id', 'a1');
  assert.equal(table.code, 0, table.stderr);
  const header = table.stdout.split('\n')[0]!.split(/\s+/);
  for (const column of ['deploymentId', 'status', 'kind', 'reason', 'createdAt']) assert.ok(header.includes(column), `${column} shown: ${header}`);
  for (const column of ['composeId', 'databaseId', 'databaseType', 'rollbackOf']) assert.ok(!header.includes(column), `${column} left out: ${header}`);
});
