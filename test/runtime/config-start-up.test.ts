// A setting that cannot work stops the start in one line naming its variable, before any role runs;
// the data folder Berth makes, or finds, is its user's alone; the engine is reached in Docker's own
// address forms; and `pnpm start` keeps the relative paths it is given in the caller's folder.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { configFrom } from '@berth/shared/runtime/config';
import { openInfrastructure, type Infrastructure } from '@berth/shared/runtime/infrastructure';
import { startRole } from '../support/role-process.ts';

const START = fileURLToPath(new URL('../../shared/runtime/start.sh', import.meta.url));
/** The fake engine's port (this work's range). */
const ENGINE_PORT = 41931;

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-config-start-'));
  dirs.push(dir);
  return dir;
};
const modeOf = (path: string) => statSync(path).mode & 0o777;

/** The lines a process wrote until it exited (killed, and so failing, after 60 s), and its exit code. */
async function outcome(child: { kill(signal: NodeJS.Signals): boolean }, exited: Promise<number | null>, output: () => string) {
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await exited;
  clearTimeout(timer);
  return { code, lines: output().trim().split('\n') };
}

/** `berth start` with `env` exits 1 with exactly the one line `berth start could not start: <expected>`. */
async function refusedInOneLine(env: Record<string, string>, expected: string) {
  const role = startRole('start', { BERTH_DATA_DIR: join(folder(), 'data'), HOST: '127.0.0.1', PORT: '0', ...env });
  const { code, lines } = await outcome(role.child, role.exited, () => role.output.join(''));
  assert.equal(code, 1, lines.join('\n'));
  assert.deepEqual(lines, [`berth start could not start: ${expected}`]);
}

/** The infrastructure a projections process opens, for `use`, then closed. */
async function withInfrastructure(env: Record<string, string>, use: (infra: Infrastructure) => Promise<void>) {
  const infra = await openInfrastructure(configFrom({ BERTH_INSTANCE_KEY: randomBytes(32).toString('base64'), ...env }, { roles: ['projections'] }));
  try {
    await use(infra);
  } finally {
    await infra.close();
  }
}

describe('a setting that cannot work stops the start in one line, before any role runs', () => {
  it('a log level pino does not have (it failed inside the API, after the other roles had started)', () =>
    refusedInOneLine({ BERTH_LOG_LEVEL: 'loud' }, 'BERTH_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")'));

  it('a data folder that is a file', async () => {
    const file = join(folder(), 'a-file');
    writeFileSync(file, 'x');
    await refusedInOneLine({ BERTH_DATA_DIR: file }, `BERTH_DATA_DIR ${file} is not a folder`);
  });

  it('a data folder that cannot be made, with the system\'s reason', async () => {
    const file = join(folder(), 'a-file');
    writeFileSync(file, 'x');
    await refusedInOneLine({ BERTH_DATA_DIR: join(file, 'data') }, `BERTH_DATA_DIR ${join(file, 'data')} cannot be used: ENOTDIR: not a directory, stat '${join(file, 'data')}'`);
  });

  it('a proxy folder that is a file', async () => {
    const file = join(folder(), 'a-file');
    writeFileSync(file, 'x');
    await refusedInOneLine({ BERTH_PROXY_DIR: file }, `BERTH_PROXY_DIR ${file} is not a folder`);
  });

  it('an engine address of a scheme Berth cannot use', () =>
    refusedInOneLine({ BERTH_ENGINE_SOCKET: 'ssh://me@engine' },
      'BERTH_ENGINE_SOCKET must be an absolute socket path, unix://<path>, tcp://<host>:<port> or http(s)://<host>:<port> (got "ssh://me@engine")'));

  it('an empty instance key file', async () => {
    const file = join(folder(), 'key');
    writeFileSync(file, '');
    await refusedInOneLine({ BERTH_INSTANCE_KEY_FILE: file }, `BERTH_INSTANCE_KEY_FILE (${file}) is empty: it must hold base64 of 32 bytes`);
  });
});

describe('the data folder is its user\'s alone', () => {
  it('is made 0700, and its proxy folder is made', async () => {
    const dataDir = join(folder(), 'several', 'levels');
    await withInfrastructure({ BERTH_DATA_DIR: dataDir }, async () => {
      assert.equal(modeOf(dataDir).toString(8), '700');
      assert.ok(existsSync(join(dataDir, 'events.db')));
      assert.ok(statSync(join(dataDir, 'proxy')).isDirectory());
    });
  });

  it('one made before, readable by every local user, is closed to them at start', async () => {
    const dataDir = join(folder(), 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    await withInfrastructure({ BERTH_DATA_DIR: dataDir }, async () => {
      assert.equal(modeOf(dataDir).toString(8), '700');
    });
  });
});

describe('the engine in Docker\'s own address forms', () => {
  it('unix://<path> is the socket at that path', () =>
    withInfrastructure({ BERTH_DATA_DIR: folder(), BERTH_ENGINE_SOCKET: 'unix:///var/run/docker.sock' }, async (infra) => {
      assert.ok((await infra.engine.listNodes()).length >= 1, 'the swarm\'s nodes, from the engine');
    }));

  it('tcp://<host>:<port> is HTTP to that host and port', async () => {
    const asked: string[] = [];
    const engine = createServer((request, response) => {
      asked.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await new Promise<void>((resolve) => engine.listen(ENGINE_PORT, '127.0.0.1', resolve));
    try {
      await withInfrastructure({ BERTH_DATA_DIR: folder(), BERTH_ENGINE_SOCKET: `tcp://127.0.0.1:${ENGINE_PORT}` }, async (infra) => {
        assert.deepEqual(await infra.engine.listNodes(), []);
      });
      assert.ok(asked.some((line) => /^GET .*\/nodes/.test(line)), asked.join('\n'));
    } finally {
      await new Promise((resolve) => engine.close(resolve));
    }
  });
});

describe('pnpm start from another folder', () => {
  it('resolves a relative BERTH_DATA_DIR and BERTH_PROXY_DIR against the caller\'s folder, not the checkout', { timeout: 90_000 }, async () => {
    const caller = folder();
    writeFileSync(join(caller, 'a-file'), 'x');
    const child = spawn('bash', [START], {
      cwd: caller, env: { ...process.env, BERTH_DATA_DIR: 'data-here', BERTH_PROXY_DIR: 'a-file', HOST: '127.0.0.1', PORT: '0', BERTH_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk; });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk; });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const { code, lines } = await outcome(child, exited, () => output);
    assert.equal(code, 1, lines.join('\n'));
    assert.deepEqual(lines, [`berth start could not start: BERTH_PROXY_DIR ${join(caller, 'a-file')} is not a folder`]);
    assert.equal(modeOf(join(caller, 'data-here')).toString(8), '700', 'the data folder, made in the caller\'s folder');
  });
});
