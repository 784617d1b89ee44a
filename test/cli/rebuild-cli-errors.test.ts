// `pnpm rebuild-projections` when it cannot do its work: an operator reads one line saying which
// store could not be opened and why, and the command fails; never a stack trace.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { finished, type Run } from './berth-process.ts';
import { startBerth } from '../support/berth.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'projections', 'src', 'rebuild-cli.ts');
const home = mkdtempSync(join(tmpdir(), 'berth-rebuild-cli-'));
after(() => rmSync(home, { recursive: true, force: true }));

/** The command as `pnpm rebuild-projections` runs it, on the data folder `dataDir`. */
const rebuild = (dataDir: string, args: readonly string[] = []): Promise<Run> => finished(spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
  cwd: ROOT, env: { ...process.env, BERTH_DATA_DIR: dataDir, BERTH_EVENTSTORE_URL: '', BERTH_MONGO_URL: '' },
}));

function assertOneLineFailure(run: Run, names: string): void {
  assert.equal(run.code, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack trace');
  const lines = run.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got:\n${run.stderr}`);
  assert.ok(lines[0]!.includes(names), `the line names ${names}: ${lines[0]}`);
}

test('a data folder that does not exist: exit 1 with one line naming it', async () => {
  const missing = join(home, 'nonexistent');
  const run = await rebuild(missing);
  assertOneLineFailure(run, missing);
  assert.match(run.stderr, /does not exist/);
});

test('an events file that is not a database: exit 1 with one line naming the file', async () => {
  const dataDir = mkdtempSync(join(home, 'garbled-events-'));
  writeFileSync(join(dataDir, 'events.db'), 'this is not a SQLite database, not even close to one\n'.repeat(100));
  assertOneLineFailure(await rebuild(dataDir), join(dataDir, 'events.db'));
});

test('a read-models file that is not a database: exit 1 with one line naming that file', async () => {
  const dataDir = mkdtempSync(join(home, 'garbled-reads-'));
  writeFileSync(join(dataDir, 'read-models.db'), 'this is not a SQLite database, not even close to one\n'.repeat(100));
  assertOneLineFailure(await rebuild(dataDir), join(dataDir, 'read-models.db'));
});

test('a data folder it can open still rebuilds and says so', async () => {
  const run = await rebuild(mkdtempSync(join(home, 'empty-')));
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^rebuilt the read models from 0 events/);
});

test('while Berth\'s projections run on the folder: exit 1 with one line saying to stop Berth, and the read models stay', async () => {
  const dataDir = mkdtempSync(join(home, 'running-'));
  const berth = await startBerth({ dataDir });
  try {
    const { projectId } = await berth.ok('project.create', { name: 'kept' });
    const run = await rebuild(dataDir);
    assertOneLineFailure(run, dataDir);
    assert.match(run.stderr, /projections run on .*: stop Berth first, or rebuild while it serves with `berth projections rebuild`$/m);
    assert.equal((await berth.ok('project.one', { projectId })).name, 'kept');
  } finally {
    await berth.stop();
  }
});

test('--help prints what it does and rebuilds nothing; an argument it does not know is refused (exit 2)', async () => {
  const dataDir = mkdtempSync(join(home, 'help-'));
  const help = await rebuild(dataDir, ['--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^usage: pnpm rebuild-projections/);
  assert.doesNotMatch(help.stdout, /rebuilt/);
  const typo = await rebuild(dataDir, ['--dry-run']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /^rebuild-projections takes no arguments \(got --dry-run\)/);
  assert.doesNotMatch(typo.stdout, /rebuilt/);
});
