// `pnpm start` as a new user runs it: the embedded default from one build of the TypeScript (no
// compiling loader in the process), serving the API, the compose templates it reads from their
// files, and stopping cleanly on SIGTERM; and one role alone runs until it is told to stop.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort, httpClient } from '../support/http.ts';
import { eventually } from '../support/engine.ts';

const START = fileURLToPath(new URL('../../shared/runtime/start.sh', import.meta.url));

test('pnpm start serves the embedded Berth from its build, templates included, and stops on SIGTERM', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-start-'));
  const port = await freePort();
  const child = spawn('bash', [START], {
    env: { ...process.env, BERTH_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', BERTH_ROLES: 'api,projections', BERTH_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk; });
  child.stderr.on('data', (chunk: Buffer) => { output += chunk; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const api = httpClient(`http://127.0.0.1:${port}`);
    await eventually('pnpm start to answer /health', async () => {
      if (child.exitCode !== null) assert.fail(`pnpm start exited with ${child.exitCode}: ${output}`);
      return (await api.raw('/health')).status === 200;
    }, 50_000);
    const command = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(command.some((part) => /\/\.build\/[0-9a-f]{16}\/roles-cli\.mjs$/.test(part)), `runs the build: ${command.join(' ')}`);
    assert.ok(!command.includes('tsx'), 'no compiling loader');

    const setupToken = readFileSync(join(dataDir, 'setup-token'), 'utf8').trim();
    const admin = { email: 'start@berth.test', password: 'a long enough password' };
    await api.call('auth.createAdmin', admin, { token: setupToken });
    api.token = (await api.ok('auth.login', admin)).token;
    const { projectId } = await api.ok('project.create', { name: 'first', description: null });
    assert.equal((await api.ok('project.one', { projectId })).name, 'first');
    const templates = await api.ok('compose.templates', {});
    assert.ok(templates.length >= 20, `the templates are read from their files: ${templates.length}`);
  } finally {
    child.kill('SIGTERM');
    assert.equal(await exited, 0, output);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a role started alone (pnpm start projections) runs until SIGTERM, then exits 0', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-role-'));
  const child = spawn('bash', [START, 'projections'], { env: { ...process.env, BERTH_DATA_DIR: dataDir }, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => { output += chunk; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    // Started once its read models exist; then it must still be there a while later.
    await eventually('the projections process to start', async () => existsSync(join(dataDir, 'read-models.db')), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.equal(child.exitCode, null, `the projections process ended on its own: ${output}`);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, output);
    assert.match(output, /berth projections: SIGTERM, stopping/);
  } finally {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
