// The berth command runs from a build it keeps (in .build-cli/, or BERTH_CLI_BUILD_DIR), made again
// only when a file it was made from changed; where none can be kept, it still runs.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import type { CliStamp } from '@berth/shared/cli/build-cli';
import { runBerth } from './berth-process.ts';

// A folder of this test's own: the other tests' calls build and read the checkout's.
const buildDir = mkdtempSync(join(tmpdir(), 'berth-cli-build-'));
after(() => rmSync(buildDir, { recursive: true, force: true }));
const STAMP = join(buildDir, 'stamp.json');
const HELP_SOURCE = fileURLToPath(new URL('../../shared/cli/help.ts', import.meta.url));
const stamp = () => JSON.parse(readFileSync(STAMP, 'utf8')) as CliStamp;

async function groupHelp(keptIn = buildDir): Promise<string> {
  const run = await runBerth({ BERTH_URL: 'http://127.0.0.1:9', BERTH_CLI_BUILD_DIR: keptIn }, 'project', '--help');
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /berth project create --name/);
  return run.stdout;
}

test('the berth command builds itself once, runs from that build until a file it was made from changes, then builds again', async () => {
  const help = await groupHelp();
  const built = stamp();
  assert.ok(statSync(built.entry).isFile(), 'the stamp names no built command');
  assert.ok(HELP_SOURCE in built.sources, 'the stamp does not name the help module among its sources');
  assert.ok(built.roleCommands.includes('start'));

  const written = statSync(STAMP).mtimeMs;
  assert.equal(await groupHelp(), help);
  assert.equal(statSync(STAMP).mtimeMs, written, 'a call with nothing changed built the command again');

  // An edit, as far as the stamp can tell: the file's modification time moves.
  const later = new Date(Math.floor(Date.now() / 1000) * 1000 + 1000);
  utimesSync(HELP_SOURCE, later, later);
  assert.equal(await groupHelp(), help);
  assert.equal(stamp().sources[HELP_SOURCE], statSync(HELP_SOURCE).mtimeMs, 'the call after the change did not build again');
});

test('the berth command runs where it cannot keep a build, through the compiling loader', async () => {
  // A folder below a file can never be made.
  const help = await groupHelp(join(fileURLToPath(import.meta.url), 'build'));
  assert.match(help, /berth project all/);
});
