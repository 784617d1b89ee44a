// `--help` on the commands that act (start a role, rebuild, sign out) prints that command's usage and
// exits 0 before anything acts; a flag or word such a command does not take is one line and exit 2.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { finished, spawnBerth, type Run } from './berth-process.ts';
import { standIn } from './stand-in.ts';

const berth = standIn({
  'auth.logout': { status: 200, body: true },
  'projections.rebuild': { status: 200, body: { rebuilt: ['entity:project'] } },
  'projections.status': { status: 200, body: [{ name: 'entity:project', lagEvents: 0 }] },
});
const home = mkdtempSync(join(tmpdir(), 'berth-special-help-'));
const config = join(home, 'config.json');
const dataDir = join(home, 'data');

/** The command, stopped after 20 s: one that started a role instead of answering would run on. */
async function run(...args: string[]): Promise<Run> {
  writeFileSync(config, JSON.stringify({ url: berth.url(), token: 'token' }));
  const child = spawnBerth({ BERTH_CONFIG: config, BERTH_URL: '', BERTH_TOKEN: '', BERTH_DATA_DIR: dataDir, PORT: '42750', HOST: '127.0.0.1', BERTH_LOG_LEVEL: 'silent' }, args);
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  try { return await finished(child); } finally { clearTimeout(timer); }
}

before(() => berth.start());
after(async () => {
  await berth.stop();
  rmSync(home, { recursive: true, force: true });
});

const COMMANDS = [['start'], ['api'], ['projections'], ['relay'], ['reactors'], ['projections', 'rebuild'], ['projections', 'status'], ['logout'], ['login']];

test('--help and -h on every special command print its usage, exit 0, and nothing acts', async () => {
  for (const command of COMMANDS) {
    for (const help of ['--help', '-h']) {
      const seen = berth.seen.length;
      const answer = await run(...command, help);
      assert.equal(answer.code, 0, `berth ${command.join(' ')} ${help}: ${answer.stderr}`);
      assert.match(answer.stdout, new RegExp(`^berth ${command.join(' ')}\\b`, 'm'), `berth ${command.join(' ')} ${help} shows its usage`);
      assert.equal(berth.seen.length, seen, `berth ${command.join(' ')} ${help} called nothing`);
      assert.equal(existsSync(dataDir), false, `berth ${command.join(' ')} ${help} started nothing`);
    }
  }
  assert.equal(JSON.parse(readFileSync(config, 'utf8')).token, 'token', 'logout --help kept the token');
});

test('a flag or word a special command does not take is one line and exit 2, and nothing acts', async () => {
  for (const args of [['start', '--port', '1'], ['api', 'now'], ['projections', 'later'], ['relay', '--json'], ['reactors', '-x'],
    ['projections', 'rebuild', '--force'], ['projections', 'rebuild', 'a', 'b'], ['projections', 'status', '--verbose'], ['logout', '--everywhere']]) {
    const seen = berth.seen.length;
    const answer = await run(...args);
    assert.equal(answer.code, 2, `berth ${args.join(' ')}: ${answer.stderr}`);
    assert.equal(answer.stderr.trim().split('\n').length, 1, `one line for berth ${args.join(' ')}, got:\n${answer.stderr}`);
    assert.equal(berth.seen.length, seen, `berth ${args.join(' ')} called nothing`);
    assert.equal(existsSync(dataDir), false, `berth ${args.join(' ')} started nothing`);
  }
});

test('the special commands still act when asked properly', async () => {
  const rebuild = await run('projections', 'rebuild', 'entity:project', '--json');
  assert.equal(rebuild.code, 0, rebuild.stderr);
  assert.equal(berth.seen.at(-1)?.operation, 'projections.rebuild');
  const status = await run('projections', 'status');
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /entity:project/);
});
