// One budget of failed sign-ins per account, whether the password or the two-factor pin was wrong,
// and one per client address, whatever sign-in operation the failures went through.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { ManualClock } from '../support/clock.ts';
import { invitedUser, type TestUser } from '../support/users.ts';
import { turnOnTwoFactor } from './pins.ts';

const LIMITS = { attemptsPerAccount: 3, attemptsPerAddress: 5, attemptWindowSeconds: 600 };
const WRONG_PIN = '000000';

describe('sign-in budgets', () => {
  const clock = new ManualClock();
  let berth: TestBerth;
  before(async () => { berth = await startBerth({ clock, config: LIMITS }); });
  after(() => berth.stop());

  const post = (operation: string, payload: object, address: string) =>
    berth.app.inject({ method: 'POST', url: `/api/${operation}`, payload, remoteAddress: address });
  const login = (email: string, password: string, address: string) => post('auth.login', { email, password }, address);
  const wrongPin = (id: string, address: string) => post('auth.verifyLogin2FA', { id, pin: WRONG_PIN }, address);

  async function twoFactorUser(): Promise<TestUser> {
    const user = await invitedUser(berth);
    await turnOnTwoFactor(berth, clock, user);
    return user;
  }

  it('counts wrong pins and wrong passwords of one account against one budget', async () => {
    const user = await twoFactorUser();
    assert.equal((await login(user.email, user.password, '10.1.0.1')).statusCode, 200, 'the password opens the pin step');
    assert.equal((await wrongPin(user.id, '10.1.0.2')).statusCode, 400);
    assert.equal((await wrongPin(user.id, '10.1.0.3')).statusCode, 400);
    assert.equal((await login(user.email, 'not the password', '10.1.0.4')).statusCode, 401);
    const blocked = await login(user.email, user.password, '10.1.0.5');
    assert.equal(blocked.statusCode, 429, blocked.body);
    assert.equal((await wrongPin(user.id, '10.1.0.6')).statusCode, 429);
  });

  it('counts one address’s failures of every sign-in operation against one budget', async () => {
    clock.advance(601_000);
    const user = await twoFactorUser();
    assert.equal((await login(user.email, user.password, '10.2.0.9')).statusCode, 200);
    const address = '10.2.0.1';
    assert.equal((await wrongPin(user.id, address)).statusCode, 400);
    assert.equal((await login('nobody1@berth.test', 'whatever1', address)).statusCode, 401);
    assert.equal((await login('nobody2@berth.test', 'whatever1', address)).statusCode, 401);
    assert.equal((await post('auth.createUser', { id: 'no-such-invitation-0', token: 'wrong', password: 'a good password' }, address)).statusCode, 400);
    assert.equal((await login('nobody3@berth.test', 'whatever1', address)).statusCode, 401);
    for (const attempt of [
      () => login('nobody4@berth.test', 'whatever1', address),
      () => wrongPin(user.id, address),
      () => post('auth.createUser', { id: 'no-such-invitation-1', token: 'wrong', password: 'a good password' }, address),
    ]) assert.equal((await attempt()).statusCode, 429);
  });

  it('answers an unknown email as it answers an account’s, attempt after attempt', async () => {
    clock.advance(601_000);
    const user = await invitedUser(berth);
    const answers = async (email: string, address: string) => {
      const seen = [];
      for (let i = 0; i < 4; i++) {
        const answer = await login(email, 'not the password', address);
        seen.push({ status: answer.statusCode, code: answer.json().code, message: answer.json().message, retry: answer.headers['retry-after'] });
      }
      return seen;
    };
    assert.deepEqual(await answers('nobody-at-all@berth.test', '10.3.0.1'), await answers(user.email, '10.3.0.2'));
  });
});
