// A relative path setting names a file of the folder the operator called pnpm from, as README
// says, through `pnpm start` and `pnpm rebuild-projections` too: pnpm runs both in the checkout.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';

const CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));
const callers: string[] = [];
const unique = `relative-${randomBytes(4).toString('hex')}`;
after(() => {
  for (const dir of callers) rmSync(dir, { recursive: true, force: true });
  // What a wrong resolution would have made in the checkout.
  rmSync(join(CHECKOUT, unique), { recursive: true, force: true });
});

/** A folder outside the checkout, with a data folder and an instance key file in it. */
function callerFolder(): string {
  const caller = mkdtempSync(join(tmpdir(), 'berth-caller-'));
  callers.push(caller);
  mkdirSync(join(caller, unique), { mode: 0o700 });
  writeFileSync(join(caller, 'instance-key'), randomBytes(32).toString('base64'));
  writeFileSync(join(caller, 'a-file'), 'x');
  return caller;
}

/** Runs `pnpm --dir <checkout> <script>` from `cwd`; answers its exit code and output. */
function pnpm(cwd: string, script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  // A variable of an outer pnpm run (this suite's own) must not stand in for the one pnpm sets.
  const { INIT_CWD: _outer, PNPM_SCRIPT_SRC_DIR: _dir, ...inherited } = process.env;
  const child = spawn('pnpm', ['--silent', '--dir', CHECKOUT, script], {
    cwd, env: { ...inherited, BERTH_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk; });
  child.stderr.on('data', (chunk: Buffer) => { output += chunk; });
  // A Berth that did start would never exit: its whole process group goes.
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 60_000);
  return new Promise((resolve) => child.once('exit', (code) => { clearTimeout(timer); resolve({ code, output }); }));
}

describe('relative path settings through pnpm, from another folder', () => {
  it('pnpm rebuild-projections finds the data folder and the key file in the caller\'s folder', { timeout: 120_000 }, async () => {
    const caller = callerFolder();
    const { code, output } = await pnpm(caller, 'rebuild-projections', { BERTH_DATA_DIR: unique, BERTH_INSTANCE_KEY_FILE: 'instance-key' });
    assert.equal(code, 0, output);
    assert.ok(readdirSync(join(caller, unique)).length > 0, 'nothing was written in the caller\'s data folder');
    assert.ok(!existsSync(join(CHECKOUT, unique)), 'a data folder was made in the checkout');
  });

  it('pnpm start reads BERTH_DATA_DIR, BERTH_INSTANCE_KEY_FILE and BERTH_PROXY_DIR against the caller\'s folder', { timeout: 120_000 }, async () => {
    const caller = callerFolder();
    // A proxy folder that is a file stops Berth at start, with the path it resolved (checked after the key file is read).
    const { code, output } = await pnpm(caller, 'start', {
      BERTH_DATA_DIR: unique, BERTH_INSTANCE_KEY_FILE: 'instance-key', BERTH_PROXY_DIR: 'a-file', HOST: '127.0.0.1', PORT: '0',
    });
    assert.equal(code, 1, output);
    assert.match(output, new RegExp(`BERTH_PROXY_DIR ${join(caller, 'a-file')} is not a folder`));
    assert.ok(!existsSync(join(CHECKOUT, unique)), 'a data folder was made in the checkout');
  });
});
