// An invitation nobody accepted in time does not keep its email: a new invitation to that email
// removes the expired one (its token can never join) and is made in its place.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { ManualClock } from '../support/clock.ts';
import { oneWinner, times } from '../support/one-winner.ts';

const LIFETIME_MS = 3600_000;

describe('a new invitation to the email of an expired one', () => {
  const clock = new ManualClock();
  let berth: TestBerth;
  before(async () => { berth = await startBerth({ clock, config: { invitationLifetimeSeconds: LIFETIME_MS / 1000 } }); });
  after(() => berth.stop());

  const invite = (email: string) => berth.call('admin.createUserInvitation', { email });
  const join = (invitation: { id: string; token: string }) =>
    berth.call('auth.createUser', { id: invitation.id, token: invitation.token, password: 'a good password' }, { token: null });
  const expire = async () => {
    clock.advance(LIFETIME_MS + 1000);
    await berth.relogin();
  };

  it('replaces it: the expired account is gone, the new invitation joins', async () => {
    const old = await berth.ok('admin.createUserInvitation', { email: 'late@berth.test' });
    await expire();
    const fresh = await invite('Late@berth.test');
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    assert.notEqual(fresh.body.id, old.id);
    assert.equal((await berth.call('auth.one', { id: old.id })).status, 404);
    assert.equal((await berth.ok('user.all')).some((account: { id: string }) => account.id === old.id), false);
    assert.equal((await join(old)).status, 400, 'the expired invitation joins no one');
    assert.equal((await join(fresh.body)).status, 200);
    const login = await berth.call('auth.login', { email: 'late@berth.test', password: 'a good password' }, { token: null });
    assert.ok(login.body.token);
  });

  it('still refuses the email of an invitation that has not expired, or of an account that joined', async () => {
    await berth.ok('admin.createUserInvitation', { email: 'pending@berth.test' });
    await berth.refused('admin.createUserInvitation', { email: 'pending@berth.test' }, 409, 'email');
    await expire();
    await berth.refused('admin.createUserInvitation', { email: 'late@berth.test' }, 409, 'email');
  });

  it('makes one of several new invitations at once, the others refused', async () => {
    await berth.ok('admin.createUserInvitation', { email: 'raced@berth.test' });
    await expire();
    const winner = oneWinner(await times(6, () => invite('raced@berth.test')), 'email');
    assert.equal((await join(winner.body as { id: string; token: string })).status, 200);
  });
});
