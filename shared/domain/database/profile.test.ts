import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ENGINES } from '../../contract/databases.ts';
import { ENGINE_PROFILES, profileOf } from './profile.ts';
import { parseProfileOverrides } from './profile-override.ts';
import { databaseServiceSpec } from './service-spec.ts';

const credentials = { databaseName: 'shop', databaseUser: 'shopper', databasePassword: 'pw-secret-1', databaseRootPassword: 'root-secret-2' };

describe('engine profiles', () => {
  it('speak the official images\' environment contracts', () => {
    assert.deepEqual(ENGINE_PROFILES.dbgamma.environment(credentials), { POSTGRES_DB: 'shop', POSTGRES_USER: 'shopper', POSTGRES_PASSWORD: 'pw-secret-1' });
    assert.deepEqual(ENGINE_PROFILES.dbalpha.environment(credentials), {
      MARIADB_DATABASE: 'shop', MARIADB_USER: 'shopper', MARIADB_PASSWORD: 'pw-secret-1', MARIADB_ROOT_PASSWORD: 'root-secret-2',
    });
    assert.deepEqual(Object.keys(ENGINE_PROFILES.dbbeta.environment(credentials)), ['MYSQL_DATABASE', 'MYSQL_USER', 'MYSQL_PASSWORD', 'MYSQL_ROOT_PASSWORD']);
    assert.deepEqual(ENGINE_PROFILES.dbdelta.environment(credentials), { MONGO_INITDB_ROOT_USERNAME: 'shopper', MONGO_INITDB_ROOT_PASSWORD: 'pw-secret-1' });
    assert.deepEqual(ENGINE_PROFILES.dbepsilon.environment(credentials), { REDIS_PASSWORD: 'pw-secret-1' });
  });

  it('keep the key-value server\'s password when a user\'s command replaces its arguments; the others\' commands run as given', () => {
    const fields = { appName: 'cache', env: null, externalPort: null, memoryLimit: null, memoryReservation: null, cpuLimit: null, cpuReservation: null };
    const argsOf = (engine: 'dbepsilon' | 'dbgamma', command: string | null) =>
      databaseServiceSpec(engine, { ...fields, command }, credentials, profileOf(engine, null)).TaskTemplate.ContainerSpec.Args;
    assert.deepEqual(argsOf('dbepsilon', 'redis-server --maxmemory 50mb'), ['redis-server', '--maxmemory', '50mb', '--requirepass', 'pw-secret-1']);
    assert.deepEqual(argsOf('dbgamma', 'postgres -c max_connections=37'), ['postgres', '-c', 'max_connections=37']);
    assert.deepEqual(argsOf('dbepsilon', null), [...ENGINE_PROFILES.dbepsilon.args!]);
  });

  it('give each kind its port, data path and dump extension', () => {
    assert.deepEqual(ENGINES.map((e) => [ENGINE_PROFILES[e].internalPort, ENGINE_PROFILES[e].dataPath, ENGINE_PROFILES[e].extension]), [
      [3306, '/var/lib/mysql', 'sql'], [3306, '/var/lib/mysql', 'sql'], [5432, '/var/lib/postgresql/data', 'dump'],
      [27017, '/data/db', 'archive'], [6379, '/data', 'rdb'],
    ]);
    assert.equal(profileOf('dbgamma', 'my/postgres:16').image, 'my/postgres:16');
  });

  it('pass the database as an argument and never hold a password in a command', () => {
    for (const engine of ENGINES) {
      const profile = ENGINE_PROFILES[engine];
      const commands = [profile.ready, profile.dump('shop'), profile.restore('shop'), profile.args ?? []];
      const text = JSON.stringify(commands);
      for (const secret of ['pw-secret-1', 'root-secret-2']) assert.ok(!text.includes(secret), engine);
      if (engine !== 'dbepsilon') assert.equal(profile.dump('shop').at(-1), 'shop', `${engine} dumps the database it is given`);
    }
  });

  it('take the operator\'s overrides: the neutral image\'s target, the port, the environment and the commands', () => {
    const overrides = parseProfileOverrides(JSON.stringify({
      dbgamma: {
        image: 'registry.example/postgres:16', internalPort: 5433,
        environment: { PGDB: '{databaseName}', PGPASS: '{databasePassword}' },
        dump: ['sh', '-c', 'exec pg_dump "$1"', 'berth', '{database}'],
      },
    }), 'test');
    const neutral = profileOf('dbgamma', 'dbgamma:15', overrides);
    assert.equal(neutral.image, 'registry.example/postgres:16');
    assert.equal(profileOf('dbgamma', 'my/postgres:16', overrides).image, 'my/postgres:16', 'an image the user chose is kept');
    assert.equal(neutral.internalPort, 5433);
    assert.equal(neutral.dataPath, '/var/lib/postgresql/data', 'what is not overridden stays');
    assert.deepEqual(neutral.environment(credentials), { PGDB: 'shop', PGPASS: 'pw-secret-1' });
    assert.deepEqual(neutral.dump('shop'), ['sh', '-c', 'exec pg_dump "$1"', 'berth', 'shop']);
    assert.equal(profileOf('dbalpha', 'dbalpha:6', overrides).image, 'dbalpha:6', 'other kinds are untouched');
  });

  it('refuse an override file with an unknown kind, an unknown field or a wrong type, naming each', () => {
    assert.throws(() => parseProfileOverrides('{"dbzeta": {}}', 'profiles.json'), /profiles\.json .*dbzeta/);
    assert.throws(() => parseProfileOverrides('{"dbgamma": {"port": 1}}', 'profiles.json'), /\/dbgamma.*port|port/);
    assert.throws(() => parseProfileOverrides('{"dbgamma": {"internalPort": "x"}}', 'profiles.json'), /\/dbgamma\/internalPort/);
    assert.throws(() => parseProfileOverrides('{"dbgamma": ', 'profiles.json'), /profiles\.json is not JSON/);
  });
});
