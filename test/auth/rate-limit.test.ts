import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, startBerth, type TestBerth } from '../support/berth.ts';
import { ManualClock } from '../support/clock.ts';
import { invitedUser } from '../support/users.ts';

const wrong = { email: ADMIN.email, password: 'not the password' };

describe('rate limits on sign-in', () => {
  const clock = new ManualClock();
  let berth: TestBerth;
  before(async () => {
    berth = await startBerth({ clock, config: { attemptsPerAccount: 3, attemptsPerAddress: 5, attemptWindowSeconds: 600 } });
  });
  after(() => berth.stop());

  const login = (body: object, address: string) =>
    berth.app.inject({ method: 'POST', url: '/api/auth.login', payload: body, remoteAddress: address });

  it('answers 429 with Retry-After for the attempt after the limit, even with the right password', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await login(wrong, '10.0.0.1')).statusCode, 401);
    const blocked = await login(ADMIN, '10.0.0.1');
    assert.equal(blocked.statusCode, 429);
    assert.equal(blocked.json().code, 'TOO_MANY_REQUESTS');
    assert.ok(Number(blocked.headers['retry-after']) > 0);
  });

  it('lets the account sign in again after the window', async () => {
    clock.advance(601_000);
    assert.equal((await login(ADMIN, '10.0.0.1')).statusCode, 200);
  });

  it("does not block an account for another address's failures below the account's limit", async () => {
    clock.advance(601_000);
    const other = { email: 'nobody@berth.test', password: 'whatever1' };
    for (let i = 0; i < 5; i++) await login({ ...other, email: `n${i}@berth.test` }, '10.0.0.9');
    assert.equal((await login(other, '10.0.0.9')).statusCode, 429, 'the address is over its limit');
    assert.equal((await login(ADMIN, '10.0.0.2')).statusCode, 200, 'another address signs in');
  });

  it('keeps counting across a restart', async () => {
    clock.advance(601_000);
    await berth.relogin();
    const user = await invitedUser(berth);
    for (let i = 0; i < 3; i++) await login({ email: user.email, password: 'not the password' }, '10.0.0.3');
    await berth.stop({ keepData: true });
    berth = await startBerth({ dataDir: berth.dataDir, clock, config: { attemptsPerAccount: 3, attemptsPerAddress: 5, attemptWindowSeconds: 600 } });
    assert.equal((await login({ email: user.email, password: user.password }, '10.0.0.3')).statusCode, 429);
  });
});
