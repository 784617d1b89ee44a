// The account fields the spec lets an update carry but Berth sets itself (two-factor, its secret,
// tokens, createdAt): sent back as read they change nothing; an admin can turn off the two-factor
// of an account locked out of it; anything else is refused naming the field, never silently ignored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { ManualClock } from '../support/clock.ts';
import { invitedUser } from '../support/users.ts';
import { turnOnTwoFactor } from './pins.ts';

describe('account fields set by Berth, in auth.update and auth.updateByAdmin', () => {
  const clock = new ManualClock();
  let berth: TestBerth;
  before(async () => { berth = await startBerth({ clock }); });
  after(() => berth.stop());

  it('lets an admin turn off the two-factor of a user locked out of it, after which the user signs in with the password', async () => {
    const user = await invitedUser(berth);
    await turnOnTwoFactor(berth, clock, user);
    const answer = await berth.ok('auth.updateByAdmin', { id: user.id, email: null, password: null, is2FAEnabled: false });
    assert.equal(answer.is2FAEnabled, false);
    const login = await berth.call('auth.login', { email: user.email, password: user.password }, { token: null });
    assert.ok(login.body.token, JSON.stringify(login.body));
  });

  it('turns off the caller\'s own two-factor through auth.update only after a fresh sign-in', async () => {
    const user = await invitedUser(berth);
    await turnOnTwoFactor(berth, clock, user);
    clock.advance(6 * 60_000);
    const stale = await berth.call('auth.update', { email: null, password: null, is2FAEnabled: false }, { token: user.token });
    assert.equal(stale.status, 403, JSON.stringify(stale.body));
    assert.equal((await berth.call('auth.get', {}, { token: user.token })).body.is2FAEnabled, true);
  });

  it('refuses to turn two-factor on, or set its secret or a token, naming the field and appending nothing', async () => {
    const user = await invitedUser(berth);
    const head = await berth.head();
    for (const [field, value] of [['is2FAEnabled', true], ['secret', 'JBSWY3DPEHPK3PXP'], ['token', 'chosen']] as const) {
      for (const [operation, input, token] of [
        ['auth.update', { email: null, password: null, [field]: value }, user.token],
        ['auth.updateByAdmin', { id: user.id, email: null, password: null, [field]: value }, undefined],
      ] as const) {
        const answer = await berth.call(operation, input, token === undefined ? {} : { token });
        assert.equal(answer.status, 400, `${operation} ${field}: ${JSON.stringify(answer.body)}`);
        assert.deepEqual(answer.body.issues.map((issue: { path: string }) => issue.path), [field]);
      }
    }
    assert.equal(await berth.head(), head);
    assert.equal((await berth.call('auth.get', {}, { token: user.token })).body.is2FAEnabled, false);
  });

  it('takes the fields back as they were read, changing nothing', async () => {
    const user = await invitedUser(berth);
    const read = (await berth.call('auth.get', {}, { token: user.token })).body;
    const answer = await berth.ok('auth.updateByAdmin', {
      id: user.id, email: null, password: null, is2FAEnabled: false, secret: null, token: null, createdAt: read.createdAt,
    });
    assert.equal(answer.createdAt, read.createdAt);
    assert.equal(answer.is2FAEnabled, false);
  });
});
