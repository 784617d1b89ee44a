import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT, UnsecuredJWT } from 'jose';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { invitedUser, setPermissions } from '../support/users.ts';

describe('tokens', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  it('issues an API token that works, is shown once and stops working when revoked', async () => {
    const user = await invitedUser(berth, { canAccessToAPI: true });
    const { token } = (await berth.call('auth.generateToken', {}, { token: user.token })).body;
    assert.match(token, /^berth_/);
    assert.equal((await berth.call('auth.get', {}, { token })).body.id, user.id);
    assert.equal((await berth.call('auth.verifyToken', {}, { token })).body, true);
    assert.equal((await berth.call('auth.logout', {}, { token })).status, 200);
    assert.equal((await berth.call('auth.get', {}, { token })).status, 401);
    assert.equal((await berth.call('auth.get', {}, { token: user.token })).status, 200, 'the login token is another credential');
  });

  it('refuses API tokens of an account that lost canAccessToAPI', async () => {
    const user = await invitedUser(berth, { canAccessToAPI: true });
    const { token } = (await berth.call('auth.generateToken', {}, { token: user.token })).body;
    await setPermissions(berth, user, { canAccessToAPI: false });
    assert.equal((await berth.call('auth.get', {}, { token })).status, 403);
    assert.equal((await berth.call('auth.generateToken', {}, { token: user.token })).status, 403);
  });

  it('refuses every token of a removed account at once', async () => {
    const user = await invitedUser(berth, { canAccessToAPI: true });
    const { token } = (await berth.call('auth.generateToken', {}, { token: user.token })).body;
    await berth.ok('admin.removeUser', { authId: user.id });
    assert.equal((await berth.call('auth.get', {}, { token: user.token })).status, 401);
    assert.equal((await berth.call('auth.get', {}, { token })).status, 401);
    const login = await berth.call('auth.login', { email: user.email, password: user.password }, { token: null });
    assert.equal(login.status, 401);
  });

  it('refuses a token with alg none, one signed with another key, and a tampered one', async () => {
    const me = await berth.ok('auth.get');
    const now = Math.floor(Date.now() / 1000);
    const unsigned = new UnsecuredJWT({}).setSubject(me.id).setJti('x'.repeat(21)).setIssuedAt(now).setExpirationTime(now + 60).encode();
    const otherKey = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(me.id).setJti('y'.repeat(21))
      .setIssuedAt(now).setExpirationTime(now + 60).sign(new Uint8Array(32).fill(7));
    const [header, payload, signature] = berth.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = [header, Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url'), signature].join('.');
    for (const token of [unsigned, otherKey, tampered]) {
      const answer = await berth.call('auth.get', {}, { token });
      assert.equal(answer.status, 401);
      assert.equal(answer.body.code, 'UNAUTHORIZED');
    }
  });

  it('answers admin operations at /admin.<p> and at /api/admin.<p>', async () => {
    for (const url of ['/admin.one', '/api/admin.one']) {
      const answer = await berth.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${berth.token}` } });
      assert.equal(answer.statusCode, 200, url);
      assert.equal(answer.json().rol, 'admin');
    }
  });
});
