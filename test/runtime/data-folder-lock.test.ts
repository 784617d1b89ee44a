// One Berth process per data folder on the embedded default (no NATS, hence no lease): a second
// `berth start` on the folder is refused with one line naming it while the first runs, and the
// folder is free again once the first ends, killed (SIGKILL) or stopped cleanly. An API-only
// process needs no lock; Berths started in this process are held to it as well.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { configFrom } from '@berth/shared/runtime/config';
import { launch } from '@berth/shared/runtime/launch';
import { freePort } from '../support/http.ts';
import { eventually, startRole, type RoleProcess } from '../support/role-process.ts';
import { startNats } from '../support/nats.ts';

const processes: RoleProcess[] = [];
const dirs: string[] = [];
after(async () => {
  for (const role of processes) role.child.kill('SIGKILL');
  await Promise.all(processes.map((role) => role.exited));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-folder-lock-'));
  dirs.push(dir);
  return dir;
};

/** `berth start` (every role) on the folder, on a port of its own. */
async function berthStart(dataDir: string): Promise<RoleProcess> {
  const role = startRole('start', {
    BERTH_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(await freePort()), BERTH_LOG_LEVEL: 'silent', BERTH_SQLITE_SYNCHRONOUS: 'NORMAL',
  });
  processes.push(role);
  return role;
}

const output = (role: RoleProcess) => role.output.join('');

/** Polls until `state` answers; unlike `eventually`, an error it throws ends the wait at once. */
async function waitFor<T>(what: string, role: RoleProcess, state: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const result = state();
    if (result !== undefined) return result;
    if (Date.now() > deadline) throw new Error(`${what} within 20 s:\n${output(role)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ranRoles = (role: RoleProcess) => /relay: running/.test(output(role));

/** Resolves once its singleton roles run (the relay starts last of them); fails if it exits first. */
async function running(role: RoleProcess): Promise<void> {
  await waitFor('berth start to run', role, () => {
    if (role.child.exitCode !== null) assert.fail(`berth start exited with ${role.child.exitCode}:\n${output(role)}`);
    return ranRoles(role) || undefined;
  });
}

/** Resolves with its exit code; fails if it gets its roles running instead (two processes on one folder). */
async function refused(role: RoleProcess): Promise<number | null> {
  await waitFor('the second berth start to exit', role, () => {
    if (ranRoles(role)) assert.fail(`a second berth start ran its roles on the same data folder:\n${output(role)}`);
    return role.child.exitCode ?? undefined;
  });
  return role.exited;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const IN_USE = (dataDir: string) => `the data folder ${escaped(dataDir)} is in use by another Berth process`;
const lineFor = (dataDir: string) =>
  new RegExp(`^berth start could not start: ${IN_USE(dataDir)} .*stop that one first, or run the roles as separate processes with BERTH_NATS_URL$`);

async function assertRefused(dataDir: string): Promise<void> {
  const second = await berthStart(dataDir);
  assert.equal(await refused(second), 1, output(second));
  const lines = output(second).trim().split('\n');
  assert.equal(lines.length, 1, output(second));
  assert.match(lines[0]!, lineFor(dataDir));
}

describe('one Berth process per data folder without NATS', { timeout: 60_000 }, () => {
  it('refuses a second berth start on the folder while the first runs, naming the folder; an API-only process may join', async () => {
    const dataDir = folder();
    const first = await berthStart(dataDir);
    await running(first);
    await assertRefused(dataDir);
    assert.equal(first.child.exitCode, null, 'the first one runs on');

    const port = await freePort();
    const api = startRole('api', { BERTH_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), BERTH_LOG_LEVEL: 'silent' });
    processes.push(api);
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/health`)).status === 200, 20_000, `the API-only process to answer\n${output(api)}`);
  });

  for (const [signal, how] of [['SIGKILL', 'was killed with SIGKILL'], ['SIGTERM', 'stopped cleanly (SIGTERM)']] as const) {
    it(`lets a new one start on the folder once the first ${how}`, async () => {
      const dataDir = folder();
      const first = await berthStart(dataDir);
      await running(first);
      await assertRefused(dataDir);
      first.child.kill(signal);
      const code = await first.exited;
      if (signal === 'SIGTERM') assert.equal(code, 0, output(first));
      await running(await berthStart(dataDir));
    });
  }

  it('holds Berths of one process to it as well, and hands the folder over when one is stopped', async () => {
    const dataDir = folder();
    const config = configFrom({}, { dataDir, roles: ['projections', 'relay', 'reactors'], logLevel: 'silent', sqliteSynchronous: 'NORMAL' });
    const first = await launch(config);
    let firstStopped = false;
    try {
      // A second launch that started anyway is stopped again, so that a failing run still ends.
      const twice = await launch(config).then(async (berth) => { await berth.stop(); return 'started'; }, (error: Error) => error.message);
      assert.match(twice, new RegExp(IN_USE(dataDir)));
      await first.stop();
      firstStopped = true;
      const second = await launch(config);
      await second.stop();
    } finally {
      if (!firstStopped) await first.stop();
    }
  });
});

describe('each role once per data folder with NATS', { timeout: 60_000 }, () => {
  it('refuses a second process running a role the folder has running already, naming the role; other roles may join', async () => {
    const nats = await startNats();
    const dataDir = folder();
    const configOf = (roles: Array<'projections' | 'relay' | 'reactors'>) =>
      configFrom({}, { dataDir, roles, natsUrl: nats.url, logLevel: 'silent', sqliteSynchronous: 'NORMAL' });
    const first = await launch(configOf(['projections', 'relay']));
    try {
      for (const role of ['projections', 'relay'] as const) {
        const twice = await launch(configOf([role])).then(async (berth) => { await berth.stop(); return 'started'; }, (error: Error) => error.message);
        assert.match(twice, new RegExp(`the data folder ${escaped(dataDir)} has its ${role} run by another Berth process already: each role runs once per data folder`));
      }
      const reactors = await launch(configOf(['reactors']));
      await reactors.stop();
    } finally {
      await first.stop();
      await nats.stop();
    }
  });
});

