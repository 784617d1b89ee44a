// A sign-in begun with a password ends with that password: a new one (set by the owner or by an
// admin) refuses the pin step of a sign-in begun before it, as an expired one is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { ManualClock } from '../support/clock.ts';
import { invitedUser, type TestUser } from '../support/users.ts';
import { pinAt, turnOnTwoFactor } from './pins.ts';

const clock = new ManualClock();
let berth: TestBerth;
let user: TestUser, secret: string;
before(async () => {
  berth = await startBerth({ clock });
  user = await invitedUser(berth);
  secret = await turnOnTwoFactor(berth, clock, user);
});

describe('a sign-in begun before a password change', () => {
  after(() => berth.stop());

  const beginSignIn = async (password: string) => {
    const answer = await berth.call('auth.login', { email: user.email, password }, { token: null });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.id as string;
  };
  const finishSignIn = async (id: string) => {
    clock.advance(30_000); // a new pin for each attempt: pins are accepted once
    return berth.call('auth.verifyLogin2FA', { id, pin: await pinAt(secret, clock) }, { token: null });
  };
  const refusedAsExpired = async (id: string) => {
    const head = await berth.head();
    const answer = await finishSignIn(id);
    assert.equal(answer.status, 401, JSON.stringify(answer.body));
    assert.match(answer.body.message, /sign in again/);
    assert.equal(answer.body.token, undefined);
    assert.equal(await berth.head(), head, 'a refused challenge appended events');
  };

  it('refuses the pin after the owner changed the password', async () => {
    const id = await beginSignIn(user.password);
    clock.advance(1000);
    const changed = await berth.call('auth.update', { email: null, password: 'owner new password' }, { token: user.token });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    await refusedAsExpired(id);
  });

  it('refuses the pin after an admin set a new password', async () => {
    const id = await beginSignIn('owner new password');
    clock.advance(1000);
    await berth.ok('auth.updateByAdmin', { id: user.id, email: null, password: 'admin set password' });
    await refusedAsExpired(id);
  });

  it('accepts the pin of a sign-in begun with the new password', async () => {
    clock.advance(1000);
    const id = await beginSignIn('admin set password');
    const answer = await finishSignIn(id);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(answer.body.token);
  });
});
