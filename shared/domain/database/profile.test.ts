import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ENGINES } from '../../contract/databases.ts';
import { ENGINE_PROFILES, profileOf } from './profile.ts';

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
});
