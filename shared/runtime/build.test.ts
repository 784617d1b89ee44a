// The build's folders: one per content, shared by processes that start together, kept while a
// process runs it and removed after, so neither a running process nor the disk pays for a rebuild.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEntry } from './build.ts';

/** A scratch folder with an entry module answering `value`, and a build folder beside it. */
function scratch(t: { after: (fn: () => void) => void }) {
  const root = mkdtempSync(join(tmpdir(), 'berth-build-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const buildDir = join(root, '.build');
  const entry = (name: string, value: string) => {
    const file = join(root, `${name}.ts`);
    writeFileSync(file, `export const value: string = ${JSON.stringify(value)};\n`);
    return file;
  };
  const folders = () => readdirSync(buildDir).filter((name) => !name.startsWith('.'));
  return { buildDir, entry, folders };
}

/** The id of a process that has ended. */
function endedPid(): number {
  const pid = spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim();
  return Number(pid);
}

const valueOf = async (built: string) => (await import(pathToFileURL(built).href) as { value: string }).value;

test('the same sources build into the same folder, named by its content, and the built module runs', async (t) => {
  const { buildDir, entry, folders } = scratch(t);
  const source = entry('app', 'first');
  const built = await buildEntry(source, { buildDir, usedBy: process.pid });
  assert.match(built, /\/\.build\/[0-9a-f]{16}\/app\.mjs$/);
  assert.equal(await buildEntry(source, { buildDir, usedBy: process.pid }), built);
  assert.equal(await valueOf(built), 'first');
  assert.equal(folders().length, 1);
});

/** Builds `source` in a process of its own, as each `pnpm start` does; answers the built path. */
function buildElsewhere(source: string, buildDir: string): Promise<string> {
  const script = `const { buildEntry } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, 'build.ts')).href)});
    console.log(await buildEntry(${JSON.stringify(source)}, { buildDir: ${JSON.stringify(buildDir)}, usedBy: ${process.pid} }));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], (error, stdout) => (error ? reject(error) : resolve(stdout.trim())));
  });
}

test('builds started together by several processes share one complete folder, and none is left half-written', { timeout: 60_000 }, async (t) => {
  const { buildDir, entry, folders } = scratch(t);
  const source = entry('app', 'together');
  const built = await Promise.all(Array.from({ length: 4 }, () => buildElsewhere(source, buildDir)));
  assert.equal(new Set(built).size, 1);
  assert.equal(await valueOf(built[0]!), 'together');
  assert.deepEqual(readdirSync(buildDir), folders(), 'no lock or folder being written is left');
  assert.equal(folders().length, 1);
});

test('a new build removes the builds no running process uses, and keeps the ones a running process started from', async (t) => {
  const { buildDir, entry, folders } = scratch(t);
  const running = dirname(await buildEntry(entry('running', 'running'), { buildDir, usedBy: process.pid }));
  await buildEntry(entry('running', 'running'), { buildDir, usedBy: endedPid() }); // a start of the same build, ended since
  const ended = dirname(await buildEntry(entry('old', 'old'), { buildDir, usedBy: endedPid() }));
  assert.equal(folders().length, 2);
  const latest = dirname(await buildEntry(entry('latest', 'latest'), { buildDir, usedBy: endedPid() }));
  assert.ok(!existsSync(ended), 'the build of an ended process is gone');
  assert.ok(existsSync(running), 'the build of a running process stays');
  assert.ok(existsSync(latest), 'the new build is there even though its process has not started yet');
  assert.equal(folders().length, 2);
  assert.deepEqual(readdirSync(join(running, '.users')), [String(process.pid)], 'ended users are forgotten, live ones kept');
});

test('what a killed build left (a half-written folder, an abandoned lock) and files of the old flat layout are cleared', async (t) => {
  const { buildDir, entry, folders } = scratch(t);
  mkdirSync(join(buildDir, '.writing-abandoned'), { recursive: true });
  writeFileSync(join(buildDir, 'chunk-OLDLAYOUT.mjs'), '');
  mkdirSync(join(buildDir, '.lock'));
  const old = new Date(Date.now() - 60_000);
  utimesSync(join(buildDir, '.lock'), old, old);
  const built = await buildEntry(entry('app', 'after'), { buildDir, usedBy: process.pid });
  assert.equal(await valueOf(built), 'after');
  assert.deepEqual(readdirSync(buildDir), folders());
  assert.equal(folders().length, 1);
});

test('a bundled module keeps its own location (import.meta.url, .dirname, .filename), in a template string\'s value too, and a string that spells one stays as written', async (t) => {
  const { buildDir, entry } = scratch(t);
  const source = entry('app', 'unused');
  const helper = join(dirname(source), 'deeper', 'where.ts');
  mkdirSync(dirname(helper));
  writeFileSync(helper, "export const where = [import.meta.url, import.meta.dirname, import.meta.filename, 'see import.meta.url', `${import.meta.dirname}/x`];\n");
  writeFileSync(source, "export { where } from './deeper/where.ts';\nexport const value = import.meta.url;\n");
  const built = await buildEntry(source, { buildDir, usedBy: process.pid });
  const module = await import(pathToFileURL(built).href) as { where: string[]; value: string };
  assert.deepEqual(module.where, [pathToFileURL(helper).href, dirname(helper), helper, 'see import.meta.url', `${dirname(helper)}/x`]);
  assert.equal(module.value, pathToFileURL(built).href, 'the entry keeps the bundle\'s: it asks whether it is the process\'s entry');
});
