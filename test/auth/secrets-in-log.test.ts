// The raw event log of a run holds no password, token, pin or two-factor secret in clear.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generate } from 'otplib';
import { ADMIN, startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { invitedUser } from '../support/users.ts';

describe('secrets in the event log', () => {
  let berth: TestBerth;
  const secrets: string[] = [ADMIN.password];
  before(async () => {
    berth = await startBerth();
    const user = await invitedUser(berth, { canAccessToAPI: true });
    secrets.push(user.password, user.token, berth.token);
    const invitation = await berth.ok('admin.createUserInvitation', { email: 'pending@berth.test' });
    secrets.push(invitation.token);
    const setup = (await berth.call('auth.generate2FASecret', {}, { token: user.token })).body;
    const pin = await generate({ secret: setup.secret });
    await berth.call('auth.verify2FASetup', { pin, secret: setup.secret }, { token: user.token });
    secrets.push(setup.secret, pin);
    const apiToken = (await berth.call('auth.generateToken', {}, { token: user.token })).body.token;
    secrets.push(apiToken, apiToken.split('.')[1]);
    const project = await berth.ok('project.create', { name: 'p' });
    const db = await berth.ok('dbgamma.create', {
      name: 'db', appName: 'db', projectId: project.projectId, ...databaseCredentials('dbgamma', { password: 'db-password-in-clear' }),
    });
    secrets.push('db-password-in-clear');
    assert.equal(db.databasePassword, 'db-password-in-clear');
    await berth.ok('auth.update', { email: null, password: 'changed password 1' });
    secrets.push('changed password 1');
  });
  after(() => berth.stop());

  it('holds none of the values in the raw SQLite file', async () => {
    await berth.berth.infrastructure.eventStore.close().catch(() => {});
    const raw = readFileSync(join(berth.dataDir, 'events.db')).toString('latin1')
      + readFileSync(join(berth.dataDir, 'events.db-wal'), { flag: 'a+' }).toString('latin1');
    for (const secret of secrets) assert.ok(!raw.includes(secret), `found a secret in clear: ${secret.slice(0, 6)}…`);
  });
});
