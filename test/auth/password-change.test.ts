// A new password or email needs a password sign-in made minutes ago (an API token never
// qualifies), and a new password ends every token issued before it but the login that set it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { ManualClock } from '../support/clock.ts';
import { invitedUser, type TestUser } from '../support/users.ts';

describe('changing a password or an email', () => {
  const clock = new ManualClock();
  let berth: TestBerth;
  before(async () => { berth = await startBerth({ clock }); });
  after(() => berth.stop());

  const login = async (user: TestUser, password = user.password): Promise<string> =>
    (await berth.call('auth.login', { email: user.email, password }, { token: null })).body.token;
  const apiToken = async (user: TestUser): Promise<string> =>
    (await berth.call('auth.generateToken', {}, { token: user.token })).body.token;
  const status = async (token: string) => (await berth.call('auth.get', {}, { token })).status;

  it('refuses an API token, and a sign-in older than five minutes, appending nothing', async () => {
    const user = await invitedUser(berth, { canAccessToAPI: true });
    const api = await apiToken(user);
    clock.advance(6 * 60_000);
    for (const token of [api, user.token]) {
      for (const change of [{ email: null, password: 'a new password' }, { email: `new-${user.email}`, password: null }]) {
        const head = await berth.head();
        const answer = await berth.call('auth.update', change, { token });
        assert.equal(answer.status, 403, JSON.stringify(answer.body));
        assert.match(answer.body.message, /Sign in again/);
        assert.equal(await berth.head(), head);
      }
    }
    assert.equal((await berth.call('auth.update', { email: null, password: null, image: 'me.png' }, { token: api })).status, 200,
      'what weakens nothing needs no fresh sign-in');
  });

  it('ends every other token of the account, and keeps the login that changed it', async () => {
    const user = await invitedUser(berth, { canAccessToAPI: true });
    const api = await apiToken(user);
    const otherDevice = await login(user);
    clock.advance(1000);
    const fresh = await login(user);
    const answer = await berth.call('auth.update', { email: null, password: 'a new password' }, { token: fresh });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual([await status(api), await status(otherDevice), await status(user.token)], [401, 401, 401]);
    assert.equal(await status(fresh), 200);
    assert.equal(await status(await login(user, 'a new password')), 200);
  });

  it('ends every token of the account when an admin sets its password', async () => {
    const user = await invitedUser(berth, { canAccessToAPI: true });
    const api = await apiToken(user);
    clock.advance(1000);
    assert.equal((await berth.call('auth.updateByAdmin', { id: user.id, email: null, password: 'reset by admin' })).status, 200);
    assert.deepEqual([await status(api), await status(user.token)], [401, 401]);
    assert.equal(await status(await login(user, 'reset by admin')), 200);
    assert.equal(await status(berth.token), 200, "the admin's own token is untouched");
  });
});
