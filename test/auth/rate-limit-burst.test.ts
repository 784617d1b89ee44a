// Parallel attempts count while they are in flight: a burst gets no more credential checks than
// the limit, and the rest are refused without being checked (never a CONFLICT).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { ManualClock } from '../support/clock.ts';
import { invitedUser } from '../support/users.ts';

const LIMIT = 3;

describe('rate limits under a burst of parallel attempts', () => {
  const clock = new ManualClock();
  let berth: TestBerth;
  before(async () => {
    berth = await startBerth({ clock, config: { attemptsPerAccount: LIMIT, attemptsPerAddress: 1000, attemptWindowSeconds: 600 } });
  });
  after(() => berth.stop());

  const login = (body: object, address: string) =>
    berth.app.inject({ method: 'POST', url: '/api/auth.login', payload: body, remoteAddress: address });

  it('checks at most the limit of 20 parallel wrong passwords and refuses the rest, the right one with them', async () => {
    const user = await invitedUser(berth);
    const wrong = Array.from({ length: 20 }, (_, i) => login({ email: user.email, password: `wrong password ${i}` }, '10.2.0.1'));
    const right = login({ email: user.email, password: user.password }, '10.2.0.1');
    const answers = await Promise.all([...wrong, right]);
    const checked = answers.filter((answer) => answer.statusCode === 401).length;
    assert.ok(checked <= LIMIT, `${checked} wrong passwords were checked`);
    assert.deepEqual(new Set(answers.map((answer) => answer.statusCode)), new Set([401, 429]));
    for (const refused of answers.filter((answer) => answer.statusCode === 429)) {
      assert.equal(refused.json().code, 'TOO_MANY_REQUESTS');
      assert.ok(Number(refused.headers['retry-after']) > 0);
    }
    assert.equal((await right).statusCode, 429, 'the right password, sent after the limit, is not accepted');
  });

  it('gives a successful attempt its slot back', async () => {
    const user = await invitedUser(berth);
    for (let i = 0; i < LIMIT + 2; i++) {
      assert.equal((await login({ email: user.email, password: user.password }, '10.2.0.2')).statusCode, 200);
    }
  });
});
