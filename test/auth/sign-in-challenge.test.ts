// verifyLogin2FA takes the account id (the spec's) and a pin, and signs in only an account that
// gave its password to auth.login just before: once per password sign-in, within five minutes.
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

describe('sign-in challenges for two-factor', () => {
  after(() => berth.stop());

  /** The user's password: the password changes below change it. */
  let password: string;
  before(() => { password = user.password; });
  const challenge = async (): Promise<string> =>
    (await berth.call('auth.login', { email: user.email, password }, { token: null })).body.id;
  const verify = async (id: string) => {
    clock.advance(30_000); // a new pin for each attempt: pins are accepted once
    return berth.call('auth.verifyLogin2FA', { id, pin: await pinAt(secret, clock) }, { token: null });
  };
  const refusedToSignInAgain = async (answer: Awaited<ReturnType<typeof verify>>, head: number) => {
    assert.equal(answer.status, 401, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 'UNAUTHORIZED');
    assert.match(answer.body.message, /sign in again/);
    assert.equal(answer.body.token, undefined);
    assert.equal(await berth.head(), head, 'a refused challenge appended events');
  };

  it('refuses a valid pin for an account that gave no password first: a pin alone signs no one in', async () => {
    await refusedToSignInAgain(await verify(user.id), await berth.head());
  });

  it('answers the account id after the password, and accepts it once per password sign-in', async () => {
    const id = await challenge();
    assert.equal(id, user.id);
    assert.equal((await verify(id)).status, 200);
    await refusedToSignInAgain(await verify(id), await berth.head());
    assert.equal((await verify(await challenge())).status, 200, 'the next password sign-in opens it again');
  });

  it('refuses a challenge after five minutes', async () => {
    const id = await challenge();
    clock.advance(5 * 60_000);
    await refusedToSignInAgain(await verify(id), await berth.head());
  });

  it('refuses another account than the one that gave its password', async () => {
    const other = await invitedUser(berth);
    await turnOnTwoFactor(berth, clock, other);
    await challenge();
    await refusedToSignInAgain(await verify(other.id), await berth.head());
  });

  it('refuses the pin of a sign-in begun before the owner changed the password, as an expired one', async () => {
    const signedIn = await verify(await challenge());
    const id = await challenge();
    clock.advance(1000);
    password = 'owner new password';
    const changed = await berth.call('auth.update', { email: null, password }, { token: signedIn.body.token });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    await refusedToSignInAgain(await verify(id), await berth.head());
  });

  it('refuses the pin of a sign-in begun before an admin set a new password', async () => {
    const id = await challenge();
    clock.advance(1000);
    password = 'admin set password';
    await berth.ok('auth.updateByAdmin', { id: user.id, email: null, password });
    await refusedToSignInAgain(await verify(id), await berth.head());
    assert.equal((await verify(await challenge())).status, 200, 'a sign-in begun with the new password takes its pin');
  });

  it('checks at most the account limit of a burst of parallel wrong pins, the right pin after them refused', async () => {
    clock.advance(60_000);
    const id = await challenge();
    const good = await pinAt(secret, clock);
    const wrong = Array.from({ length: 200 }, (_, i) => String(100000 + i)).filter((pin) => pin !== good);
    const send = (pin: string) => berth.app.inject({ method: 'POST', url: '/api/auth.verifyLogin2FA', payload: { id, pin }, remoteAddress: '10.3.0.1' });
    const answers = await Promise.all([...wrong.map(send), send(good)]);
    const checked = answers.filter((answer) => answer.statusCode === 400).length;
    assert.ok(checked <= 5, `${checked} pins were checked (limit 5 per account)`);
    assert.deepEqual(new Set(answers.map((answer) => answer.statusCode)), new Set([400, 429]));
    assert.equal(answers.at(-1)!.statusCode, 429, 'the right pin, sent after the limit, is not accepted');
  });
});
