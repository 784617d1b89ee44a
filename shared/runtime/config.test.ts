// The settings as an operator gives them: each default, each accepted value, and every value that
// would make Berth unusable or silently mean something else refused in one line naming the variable.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { configFrom } from './config.ts';
import { engineAddress } from '../adapters/docker/address.ts';

const dir = mkdtempSync(join(tmpdir(), 'berth-config-'));
const key = Buffer.alloc(32, 7).toString('base64');

/** configFrom refuses `env`, with a message that starts with the variable and names what it accepts. */
const refuses = (env: Record<string, string>, message: string | RegExp) =>
  assert.throws(() => configFrom(env), (error: Error) => {
    if (typeof message === 'string') assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  }, JSON.stringify(env));

describe('the instance key from a file', () => {
  it('is read from the file BERTH_INSTANCE_KEY_FILE names, without its trailing newline', () => {
    writeFileSync(join(dir, 'secret'), `${key}\n`);
    assert.equal(configFrom({ BERTH_INSTANCE_KEY_FILE: join(dir, 'secret') }).instanceKey, key);
  });

  it('gives way to BERTH_INSTANCE_KEY itself', () => {
    const direct = Buffer.alloc(32, 9).toString('base64');
    assert.equal(configFrom({ BERTH_INSTANCE_KEY: direct, BERTH_INSTANCE_KEY_FILE: join(dir, 'absent') }).instanceKey, direct);
  });

  it('refuses to start on a file that cannot be read, naming the variable and the path', () => {
    assert.throws(() => configFrom({ BERTH_INSTANCE_KEY_FILE: join(dir, 'absent') }),
      (error: Error) => error.message.startsWith(`BERTH_INSTANCE_KEY_FILE: cannot read ${join(dir, 'absent')}`));
  });

  it('refuses an empty file, naming the variable and the file: it is not "no key" (a new key would be made)', () => {
    writeFileSync(join(dir, 'empty'), '\n');
    refuses({ BERTH_INSTANCE_KEY_FILE: join(dir, 'empty') },
      `BERTH_INSTANCE_KEY_FILE (${join(dir, 'empty')}) is empty: it must hold base64 of 32 bytes`);
  });

  it('refuses a file that holds no key, naming BERTH_INSTANCE_KEY_FILE, not BERTH_INSTANCE_KEY', () => {
    writeFileSync(join(dir, 'garbage'), 'x\n');
    refuses({ BERTH_INSTANCE_KEY_FILE: join(dir, 'garbage') }, `BERTH_INSTANCE_KEY_FILE (${join(dir, 'garbage')}) must be base64 of 32 bytes`);
  });

  it('refuses a BERTH_INSTANCE_KEY that is no key', () => {
    refuses({ BERTH_INSTANCE_KEY: 'direct' }, 'BERTH_INSTANCE_KEY must be base64 of 32 bytes');
  });
});

describe('the defaults', () => {
  it('are what the README says, with nothing set (and with each variable set to the empty string)', () => {
    const names = ['PORT', 'BERTH_METRICS', 'BERTH_SQLITE_SYNCHRONOUS', 'BERTH_PUBLISH_MODE', 'BERTH_REMOVE_DATABASE_VOLUMES', 'BERTH_LOG_LEVEL',
      'BERTH_DEPLOY_CONCURRENCY', 'BERTH_KEEP_DEPLOYMENTS', 'BERTH_KEEP_BACKUP_RUNS', 'BERTH_LEASE_TTL_MS', 'BERTH_NOTIFY_RETRY_MS', 'BERTH_ENGINE_SOCKET', 'BERTH_ROLES', 'BERTH_PROXY_NETWORK'];
    for (const env of [{}, Object.fromEntries(names.map((name) => [name, '']))]) {
      const config = configFrom(env);
      assert.equal(config.port, 3000);
      assert.equal(config.metrics, true);
      assert.equal(config.sqliteSynchronous, 'FULL');
      assert.equal(config.publishMode, 'host');
      assert.equal(config.removeDatabaseVolumes, false);
      assert.equal(config.logLevel, 'info');
      assert.equal(config.deployConcurrency, 4);
      assert.equal(config.keepDeployments, 10);
      assert.equal(config.keepBackupRuns, 50);
      assert.equal(config.leaseTtlMs, 10_000);
      assert.equal(config.tokenLifetimeSeconds, 86_400);
      assert.equal(config.taskStartTimeoutMs, 60_000);
      assert.equal(config.actionWaitMs, 60_000);
      assert.equal(config.engineRecheckMs, 300_000);
      assert.deepEqual(config.notifyRetryMs, [1000, 10_000, 60_000, 300_000]);
      assert.equal(config.engineSocket, '/var/run/docker.sock');
      assert.deepEqual(config.roles, ['api', 'projections', 'relay', 'reactors']);
      assert.equal(config.proxyNetwork, 'berth-proxy');
    }
  });
});

describe('values that are accepted', () => {
  it('takes each documented choice', () => {
    const config = configFrom({
      BERTH_METRICS: 'off', BERTH_SQLITE_SYNCHRONOUS: 'NORMAL', BERTH_PUBLISH_MODE: 'ingress', BERTH_REMOVE_DATABASE_VOLUMES: 'on', BERTH_LOG_LEVEL: 'silent',
    });
    assert.deepEqual([config.metrics, config.sqliteSynchronous, config.publishMode, config.removeDatabaseVolumes, config.logLevel],
      [false, 'NORMAL', 'ingress', true, 'silent']);
    assert.equal(configFrom({ BERTH_METRICS: 'on' }).metrics, true);
    assert.equal(configFrom({ BERTH_REMOVE_DATABASE_VOLUMES: 'off' }).removeDatabaseVolumes, false);
  });

  it('takes whole numbers at the bounds of their ranges: PORT 0 is any free port', () => {
    assert.equal(configFrom({ PORT: '0' }).port, 0);
    assert.equal(configFrom({ PORT: '65535' }).port, 65535);
    assert.equal(configFrom({ BERTH_LEASE_TTL_MS: '1000' }).leaseTtlMs, 1000);
    assert.equal(configFrom({ BERTH_DEPLOY_CONCURRENCY: '1' }).deployConcurrency, 1);
    assert.equal(configFrom({ BERTH_KEEP_DEPLOYMENTS: '1' }).keepDeployments, 1);
    assert.equal(configFrom({ BERTH_KEEP_BACKUP_RUNS: '1' }).keepBackupRuns, 1);
    assert.equal(configFrom({ BERTH_TASK_STEADY_MS: '0' }).taskSteadyMs, 0);
    assert.equal(configFrom({ BERTH_PROJECTION_WAIT_MS: '0' }).projectionWaitMs, 0);
    assert.equal(configFrom({ BERTH_CONNECT_TIMEOUT_SECONDS: '0' }).connectTimeoutSeconds, 0);
    assert.equal(configFrom({ BERTH_ACTION_WAIT_MS: '2147483647' }).actionWaitMs, 2 ** 31 - 1);
  });

  it('takes a list of retry waits, spaces around its entries included', () => {
    assert.deepEqual(configFrom({ BERTH_NOTIFY_RETRY_MS: '200, 500,0' }).notifyRetryMs, [200, 500, 0]);
  });

  it('takes a proxy network named as the engine names networks', () => {
    for (const name of ['traefik-public', 'proxy_net.1', 'P0']) assert.equal(configFrom({ BERTH_PROXY_NETWORK: name }).proxyNetwork, name);
  });

  it('takes roles with spaces around their names', () => {
    assert.deepEqual(configFrom({ BERTH_ROLES: ' api , projections' }).roles, ['api', 'projections']);
  });

  it('reads the engine address in Docker\'s own forms, Berth\'s bare path and an http(s) URL', () => {
    assert.deepEqual(engineAddress('/var/run/docker.sock'), { socketPath: '/var/run/docker.sock' });
    assert.deepEqual(engineAddress('unix:///var/run/docker.sock'), { socketPath: '/var/run/docker.sock' });
    assert.deepEqual(engineAddress('tcp://engine.local:2375'), { protocol: 'http', host: 'engine.local', port: 2375 });
    assert.deepEqual(engineAddress('tcp://10.0.0.2'), { protocol: 'http', host: '10.0.0.2', port: 2375 });
    assert.deepEqual(engineAddress('http://127.0.0.1:41999'), { protocol: 'http', host: '127.0.0.1', port: 41999 });
    assert.deepEqual(engineAddress('http://engine.local'), { protocol: 'http', host: 'engine.local', port: 80 });
    assert.deepEqual(engineAddress('https://engine.local:2376'), { protocol: 'https', host: 'engine.local', port: 2376 });
    assert.deepEqual(engineAddress('tcp://[::1]:2375'), { protocol: 'http', host: '::1', port: 2375 });
    assert.equal(configFrom({ BERTH_ENGINE_SOCKET: 'unix:///run/docker.sock' }).engineSocket, 'unix:///run/docker.sock');
  });
});

describe('values that are refused, naming the variable and what it accepts', () => {
  it('a choice outside its list, in any other spelling too', () => {
    for (const value of ['false', 'maybe', 'OFF', 'On']) refuses({ BERTH_METRICS: value }, `BERTH_METRICS must be one of on, off (got "${value}")`);
    for (const value of ['OFF', 'normal']) {
      refuses({ BERTH_SQLITE_SYNCHRONOUS: value }, `BERTH_SQLITE_SYNCHRONOUS must be one of FULL, NORMAL (got "${value}")`);
    }
    for (const value of ['x', 'Ingress']) refuses({ BERTH_PUBLISH_MODE: value }, `BERTH_PUBLISH_MODE must be one of host, ingress (got "${value}")`);
    for (const value of ['true', 'yes']) {
      refuses({ BERTH_REMOVE_DATABASE_VOLUMES: value }, `BERTH_REMOVE_DATABASE_VOLUMES must be one of on, off (got "${value}")`);
    }
  });

  it('a log level pino does not have', () => {
    refuses({ BERTH_LOG_LEVEL: 'loud' }, 'BERTH_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")');
  });

  it('BERTH_ROLES that names no role, or an unknown one', () => {
    for (const value of [' , ', ',']) refuses({ BERTH_ROLES: value }, 'BERTH_ROLES names no role (api, projections, relay, reactors)');
    refuses({ BERTH_ROLES: 'api,web' }, 'Unknown role "web" in BERTH_ROLES (api, projections, relay, reactors)');
  });

  it('a port that is no whole number of 0 to 65535 (hex, exponent, fraction, too big, negative)', () => {
    for (const value of ['0x1f', '1e3', '3.5', '70000', '-1', 'abc', '3000 4000']) {
      refuses({ PORT: value }, `PORT must be a whole number from 0 to 65535 (got "${value}")`);
    }
  });

  it('zero, or below the minimum, where it would make Berth unusable: never clamped', () => {
    const cases: Array<[string, string, string]> = [
      ['BERTH_TOKEN_LIFETIME_SECONDS', '0', 'from 1 to 2147483647'],
      ['BERTH_INVITATION_LIFETIME_SECONDS', '0', 'from 1 to 2147483647'],
      ['BERTH_ATTEMPTS_PER_ACCOUNT', '0', 'of at least 1'],
      ['BERTH_ATTEMPTS_PER_ADDRESS', '0', 'of at least 1'],
      ['BERTH_ATTEMPT_WINDOW_SECONDS', '0', 'from 1 to 2147483647'],
      ['BERTH_TASK_START_TIMEOUT_MS', '0', 'from 1000 to 2147483647'],
      ['BERTH_ACTION_WAIT_MS', '0', 'from 1 to 2147483647'],
      ['BERTH_ENGINE_RECHECK_MS', '999', 'from 1000 to 2147483647'],
      ['BERTH_NOTIFY_TIMEOUT_MS', '0', 'from 1 to 2147483647'],
      ['BERTH_DEPLOY_CONCURRENCY', '0', 'of at least 1'],
      ['BERTH_KEEP_DEPLOYMENTS', '0', 'of at least 1'],
      ['BERTH_KEEP_BACKUP_RUNS', '0', 'of at least 1'],
      ['BERTH_LEASE_TTL_MS', '5', 'from 1000 to 2147483647'],
    ];
    for (const [name, value, range] of cases) refuses({ [name]: value }, `${name} must be a whole number ${range} (got "${value}")`);
  });

  it('a fraction, a unit or a wait longer than a timer can wait, in any numeric setting', () => {
    const names = ['BERTH_TOKEN_LIFETIME_SECONDS', 'BERTH_PROJECTION_WAIT_MS', 'BERTH_INVITATION_LIFETIME_SECONDS', 'BERTH_ATTEMPTS_PER_ACCOUNT',
      'BERTH_ATTEMPTS_PER_ADDRESS', 'BERTH_ATTEMPT_WINDOW_SECONDS', 'BERTH_TASK_START_TIMEOUT_MS', 'BERTH_TASK_STEADY_MS', 'BERTH_READY_MAX_LAG',
      'BERTH_READY_MAX_LAG_SECONDS', 'BERTH_CONNECT_TIMEOUT_SECONDS', 'BERTH_LEASE_TTL_MS', 'BERTH_NOTIFY_TIMEOUT_MS', 'BERTH_DEPLOY_CONCURRENCY',
      'BERTH_KEEP_DEPLOYMENTS', 'BERTH_KEEP_BACKUP_RUNS', 'BERTH_ACTION_WAIT_MS', 'BERTH_ENGINE_RECHECK_MS'];
    for (const name of names) {
      for (const value of ['1.5', '10s', '-3']) refuses({ [name]: value }, new RegExp(`^${name} must be a whole number (from|of at least) \\d+`));
    }
    for (const name of names.filter((name) => /_(MS|SECONDS)$/.test(name))) {
      refuses({ [name]: '2147483648' }, new RegExp(`^${name} must be a whole number from \\d+ to 2147483647 \\(got "2147483648"\\)$`));
    }
  });

  it('a retry list with an entry that is no whole number of milliseconds', () => {
    refuses({ BERTH_NOTIFY_RETRY_MS: 'abc' },
      'BERTH_NOTIFY_RETRY_MS must be a comma-separated list of whole numbers from 0 to 2147483647 (got "abc" in "abc")');
    refuses({ BERTH_NOTIFY_RETRY_MS: '1s,10s' },
      'BERTH_NOTIFY_RETRY_MS must be a comma-separated list of whole numbers from 0 to 2147483647 (got "1s" in "1s,10s")');
    refuses({ BERTH_NOTIFY_RETRY_MS: '1000,,2000' }, /^BERTH_NOTIFY_RETRY_MS must be .* \(got "" in "1000,,2000"\)$/);
  });

  it('a proxy network the engine would not take by that name, or one of the engine\'s own', () => {
    for (const value of ['-net', 'a b', 'net/x', '..', 'host', 'ingress', 'bridge']) {
      refuses({ BERTH_PROXY_NETWORK: value }, `BERTH_PROXY_NETWORK must be a network name (letters, digits, "_", "." and "-", not first), not one of the engine's own (got "${value}")`);
    }
  });

  it('an engine address of another scheme, or a path that is not absolute', () => {
    for (const value of ['ssh://me@engine', 'npipe:////./pipe/docker_engine', 'unix://relative.sock', 'engine.local:2375', 'tcp://']) {
      refuses({ BERTH_ENGINE_SOCKET: value }, 'BERTH_ENGINE_SOCKET must be an absolute socket path, unix://<path>, tcp://<host>:<port> '
        + `or http(s)://<host>:<port> (got "${value}")`);
    }
  });
});

describe('numbers as README words them', () => {
  it('refuses a number with spaces around it, naming the variable: a value is decimal digits', () => {
    for (const value of [' 5', '5 ', '\t60']) {
      refuses({ BERTH_TOKEN_LIFETIME_SECONDS: value }, /^BERTH_TOKEN_LIFETIME_SECONDS must be a whole number from 1 to 2147483647/);
      refuses({ BERTH_DEPLOY_CONCURRENCY: value }, /^BERTH_DEPLOY_CONCURRENCY must be a whole number of at least 1/);
    }
  });

  it('states, in each _MS and _SECONDS row, the least value the check accepts (1 unless the row says otherwise)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const rows = readme.split('\n').filter((line) => /^\| `BERTH_\w+_(MS|SECONDS)` \|/.test(line));
    assert.ok(rows.length >= 10, 'the settings table');
    for (const row of rows) {
      const name = /`(BERTH_\w+)`/.exec(row)![1]!;
      const accepts = (value: string) => { try { configFrom({ [name]: value }); return true; } catch { return false; } };
      const least = [0, 1, 1000].find((value) => accepts(String(value)));
      const said = /(\d+) to 2147483647|at least (\d+)|\((\d+): /.exec(row.split('|')[3]!);
      assert.equal(said ? Number(said[1] ?? said[2] ?? said[3]) : 1, least, `${name}: README says ${said?.[0] ?? '1 (as every _MS and _SECONDS setting)'}`);
    }
  });
});
