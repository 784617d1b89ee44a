// Settings of a database that the engine reads only when it makes the data: its name, user and passwords may
// change until the first deploy, and its env may not replace the variables Berth sets from them.
// No reactors run here: a deploy is queued, which is enough.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';

describe('database settings the engine reads once', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth({ config: { actionWaitMs: 200 } });
    ({ projectId } = await berth.ok('project.create', { name: 'settings' }));
  });
  after(() => berth.stop());

  const database = () => berth.ok('dbgamma.create', { name: 'pg', appName: 'pg', projectId, ...databaseCredentials('dbgamma', { password: 'First-Pass-1' }) });

  it('refuses an env that sets the engine contract variables, naming env, and takes other variables', async () => {
    const { dbgammaId } = await database();
    await berth.refused('dbgamma.saveEnvironment', { dbgammaId, env: 'POSTGRES_PASSWORD=from-env' }, 400, 'env');
    await berth.refused('dbgamma.update', { dbgammaId, env: 'A=1\nPOSTGRES_USER=someone' }, 400, 'env');
    assert.equal((await berth.ok('dbgamma.saveEnvironment', { dbgammaId, env: 'PGTZ=UTC' })).env, 'PGTZ=UTC');
  });

  it('changes a password until the database is deployed, then refuses naming the field', async () => {
    const { dbgammaId } = await database();
    assert.equal((await berth.ok('dbgamma.update', { dbgammaId, databasePassword: 'Second-Pass-2' })).databasePassword, 'Second-Pass-2');
    await berth.call('dbgamma.deploy', { dbgammaId }); // queued, then 409 past the bounded wait: no reactors
    await berth.refused('dbgamma.update', { dbgammaId, databasePassword: 'Third-Pass-3' }, 409, 'databasePassword');
    assert.equal((await berth.ok('dbgamma.one', { dbgammaId })).databasePassword, 'Second-Pass-2');
    assert.equal((await berth.ok('dbgamma.update', { dbgammaId, databasePassword: 'Second-Pass-2', name: 'kept' })).name, 'kept', 'the same password sent back is no change');
  });

  it('changes the database name and user until the database is deployed, then refuses naming the field', async () => {
    const { dbgammaId } = await database();
    assert.equal((await berth.ok('dbgamma.update', { dbgammaId, databaseUser: 'renamed' })).databaseUser, 'renamed');
    await berth.call('dbgamma.deploy', { dbgammaId });
    await berth.refused('dbgamma.update', { dbgammaId, databaseUser: 'again' }, 409, 'databaseUser');
    await berth.refused('dbgamma.update', { dbgammaId, databaseName: 'other' }, 409, 'databaseName');
    const kept = await berth.ok('dbgamma.one', { dbgammaId });
    assert.equal(kept.databaseUser, 'renamed');
    assert.equal((await berth.ok('dbgamma.update', { dbgammaId, databaseUser: 'renamed', databaseName: kept.databaseName, name: 'same' })).name, 'same', 'the same values sent back are no change');
  });
});
