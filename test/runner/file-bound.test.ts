// The test command's runner (test/support/run-in-order.mjs) bounds each file: a file that never
// ends (here, one that leaves a process holding its output, which the runner waits for) fails once
// its time is out, naming the file and what the tests left running, and the run goes on and ends.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';

const RUNNER = fileURLToPath(new URL('../support/run-in-order.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'berth-runner-'));
const HOLDER = `held-output-${process.pid}`;
after(() => {
  rmSync(dir, { recursive: true, force: true });
  spawn('pkill', ['-f', HOLDER]);
});

writeFileSync(join(dir, 'first.test.mjs'), `import { it } from 'node:test';\nit('passes', () => {});\n`);
// exec -a names the leftover process, so that this test can end it.
writeFileSync(join(dir, 'holds.test.mjs'), `import { it } from 'node:test';
import { spawn } from 'node:child_process';
it('leaves a process behind with its output', () => {
  spawn('bash', ['-c', 'exec -a ${HOLDER} sleep 120'], { stdio: ['ignore', 'inherit', 'inherit'], detached: true }).unref();
});
`);
writeFileSync(join(dir, 'later.test.mjs'), `import { it } from 'node:test';\nit('runs after it', () => {});\n`);

test('a file that never ends fails once its time is out, naming what it left running, and the files after it still run', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, BERTH_TEST_FILE_TIMEOUT_MS: '3000' };
  delete env.NODE_TEST_CONTEXT;
  const started = Date.now();
  const runner = spawn(process.execPath, [RUNNER, '2', dir, './first.test.ts', './holds.test.ts', './later.test.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  runner.stdout.on('data', (chunk: Buffer) => { stdout += chunk; });
  runner.stderr.on('data', (chunk: Buffer) => { stderr += chunk; });
  const code = await new Promise((resolve) => runner.on('exit', resolve));
  assert.equal(code, 1, stdout);
  assert.ok(Date.now() - started < 60_000, 'the run waited for the process the file left');
  assert.match(stdout, /ok \d+ - runs after it/);
  assert.match(stdout, /not ok \d+ - .*holds\.test\.mjs/);
  assert.match(stderr, /holds\.test\.mjs ran out of its 3 s/);
  assert.match(stderr, new RegExp(`processes started under a test file: \\n(# .*\\n)*# \\d+ .*${HOLDER}`));
});
