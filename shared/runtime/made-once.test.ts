// A file of the data folder that several processes sharing it may make at the same moment (the
// instance key, the setup token): all of them end up with the same, complete content.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';

const run = promisify(execFile);
const MODULE = fileURLToPath(new URL('./made-once.ts', import.meta.url));

test('processes that make the same file at the same moment all read the one that was made, and leave nothing else', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-made-once-'));
  const file = join(dir, 'setup-token');
  const at = Date.now() + 1500;
  // Each process waits for the same instant, then makes its own random content.
  const script = `const { madeOnce } = await import(${JSON.stringify(MODULE)});
    while (Date.now() < ${at}) {}
    process.stdout.write(madeOnce(${JSON.stringify(file)}, () => String(process.pid) + '-' + Math.random()));`;
  const answers = await Promise.all(Array.from({ length: 8 }, () =>
    run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]).then(({ stdout }) => stdout)));
  assert.equal(new Set(answers).size, 1, answers.join(', '));
  assert.equal(readFileSync(file, 'utf8'), answers[0]);
  assert.deepEqual(readdirSync(dir), ['setup-token']);
});
