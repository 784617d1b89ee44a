import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { ManualClock } from '../support/clock.ts';

const HOUR = 3600_000;

describe('invitations', () => {
  const clock = new ManualClock();
  let berth: TestBerth;
  before(async () => { berth = await startBerth({ clock }); });
  after(() => berth.stop());

  it('invite → read by token → create user → login', async () => {
    const invitation = await berth.ok('admin.createUserInvitation', { email: 'new@berth.test' });
    assert.equal(invitation.id.length, 21);
    assert.equal(invitation.expiresAt, new Date(clock.now().getTime() + 24 * HOUR).toISOString());
    const read = await berth.ok('admin.getUserByToken', { token: invitation.token });
    assert.deepEqual({ id: read.id, email: read.email, isExpired: read.isExpired }, { id: invitation.id, email: 'new@berth.test', isExpired: false });
    const created = await berth.call('auth.createUser', { id: invitation.id, token: invitation.token, password: 'a good password' }, { token: null });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.rol, 'user');
    assert.equal(created.body.passwordHash, undefined);
    const login = await berth.call('auth.login', { email: 'new@berth.test', password: 'a good password' }, { token: null });
    assert.ok(login.body.token);
  });

  it('refuses a reused invitation', async () => {
    const invitation = await berth.ok('admin.createUserInvitation', { email: 'twice@berth.test' });
    const body = { id: invitation.id, token: invitation.token, password: 'a good password' };
    assert.equal((await berth.call('auth.createUser', body, { token: null })).status, 200);
    const head = await berth.head();
    const again = await berth.call('auth.createUser', { ...body, password: 'another password' }, { token: null });
    assert.equal(again.status, 400);
    assert.equal(again.body.issues[0].path, 'token');
    const login = await berth.call('auth.login', { email: 'twice@berth.test', password: 'another password' }, { token: null });
    assert.equal(login.status, 401);
    assert.ok(await berth.head() >= head);
  });

  it('refuses a token that belongs to another account', async () => {
    const mine = await berth.ok('admin.createUserInvitation', { email: 'mine@berth.test' });
    const theirs = await berth.ok('admin.createUserInvitation', { email: 'theirs@berth.test' });
    const answer = await berth.call('auth.createUser', { id: mine.id, token: theirs.token, password: 'a good password' }, { token: null });
    assert.equal(answer.status, 400);
  });

  it('refuses an expired invitation', async () => {
    const invitation = await berth.ok('admin.createUserInvitation', { email: 'late@berth.test' });
    clock.advance(24 * HOUR + 1000);
    await berth.relogin();
    assert.equal((await berth.ok('admin.getUserByToken', { token: invitation.token })).isExpired, true);
    const answer = await berth.call('auth.createUser', { id: invitation.id, token: invitation.token, password: 'a good password' }, { token: null });
    assert.equal(answer.status, 400);
    assert.match(answer.body.message, /expired/);
  });

  it('refuses to invite an email that has an account', async () => {
    const answer = await berth.call('admin.createUserInvitation', { email: 'admin@berth.test' });
    assert.equal(answer.status, 409);
  });
});
