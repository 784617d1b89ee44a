import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { ManualClock } from '../support/clock.ts';
import { invitedUser, type TestUser } from '../support/users.ts';
import { pinAt, turnOnTwoFactor } from './pins.ts';

describe('two-factor authentication', () => {
  const clock = new ManualClock();
  let berth: TestBerth;
  let user: TestUser;
  let secret: string;
  before(async () => {
    berth = await startBerth({ clock });
    user = await invitedUser(berth);
  });
  after(() => berth.stop());

  const challenge = async (who: TestUser): Promise<string> =>
    (await berth.call('auth.login', { email: who.email, password: who.password }, { token: null })).body.id;

  it('generates a secret with an otpauth URI and a QR code, and stores nothing', async () => {
    const head = await berth.head();
    const setup = await berth.call('auth.generate2FASecret', {}, { token: user.token });
    assert.equal(setup.status, 200);
    assert.match(setup.body.uri, /^otpauth:\/\/totp\//);
    assert.match(setup.body.qrCodeUrl, /^data:image\/png;base64,/);
    assert.equal(await berth.head(), head);
    secret = setup.body.secret;
  });

  it('refuses to turn on with a wrong pin', async () => {
    const answer = await berth.call('auth.verify2FASetup', { pin: '000000', secret }, { token: user.token });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.issues[0].path, 'pin');
    assert.equal((await berth.call('auth.get', {}, { token: user.token })).body.is2FAEnabled, false);
  });

  it('turns on with a valid pin', async () => {
    const answer = await berth.call('auth.verify2FASetup', { pin: await pinAt(secret, clock), secret }, { token: user.token });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.is2FAEnabled, true);
    assert.equal(answer.body.secret, undefined);
  });

  it('answers a login with the account id to verify and no token', async () => {
    const login = await berth.call('auth.login', { email: user.email, password: user.password }, { token: null });
    assert.deepEqual(login.body, { is2FAEnabled: true, id: user.id });
  });

  it('gives a token for a valid pin, and refuses the same pin replayed', async () => {
    clock.advance(60_000);
    const pin = await pinAt(secret, clock);
    const first = await berth.call('auth.verifyLogin2FA', { pin, id: await challenge(user) }, { token: null });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.ok(first.body.token);
    assert.equal((await berth.call('auth.get', {}, { token: first.body.token })).status, 200);
    const replay = await berth.call('auth.verifyLogin2FA', { pin, id: await challenge(user) }, { token: null });
    assert.equal(replay.status, 400);
    assert.equal(replay.body.token, undefined);
    // Said as what it is, so the user waits for the next pin instead of thinking two-factor broken.
    assert.match(replay.body.message, /already used: wait for the next one/);
  });

  it('refuses a wrong pin, saying it is not valid', async () => {
    const answer = await berth.call('auth.verifyLogin2FA', { pin: '123456', id: await challenge(user) }, { token: null });
    assert.equal(answer.status, 400);
    assert.match(answer.body.message, /^pin is not valid/);
  });

  it('refuses to turn off with a sign-in older than five minutes', async () => {
    clock.advance(6 * 60_000);
    const answer = await berth.call('auth.disable2FA', {}, { token: user.token });
    assert.equal(answer.status, 403);
    assert.equal((await berth.call('auth.get', {}, { token: user.token })).body.is2FAEnabled, true);
  });

  it('turns off after a fresh sign-in with password and pin, after which login gives a token again', async () => {
    clock.advance(60_000);
    const fresh = await berth.call('auth.verifyLogin2FA', { pin: await pinAt(secret, clock), id: await challenge(user) }, { token: null });
    const answer = await berth.call('auth.disable2FA', {}, { token: fresh.body.token });
    assert.equal(answer.body.is2FAEnabled, false);
    const login = await berth.call('auth.login', { email: user.email, password: user.password }, { token: null });
    assert.ok(login.body.token);
  });
});

describe('two-factor already on', () => {
  const clock = new ManualClock();
  let berth: TestBerth;
  before(async () => { berth = await startBerth({ clock }); });
  after(() => berth.stop());

  it('refuses a new secret while one is active, even with a valid pin, and keeps the old one', async () => {
    const user = await invitedUser(berth, { canAccessToAPI: true });
    const first = await turnOnTwoFactor(berth, clock, user);
    const api = (await berth.call('auth.generateToken', {}, { token: user.token })).body.token;
    const other = (await berth.call('auth.generate2FASecret', {}, { token: api })).body.secret;
    clock.advance(60_000);
    const head = await berth.head();
    for (const token of [api, user.token]) {
      const swap = await berth.call('auth.verify2FASetup', { pin: await pinAt(other, clock), secret: other }, { token });
      assert.equal(swap.status, 409, JSON.stringify(swap.body));
      assert.match(swap.body.message, /already on; disable it first/);
    }
    assert.equal(await berth.head(), head);
    const id = (await berth.call('auth.login', { email: user.email, password: user.password }, { token: null })).body.id;
    assert.equal((await berth.call('auth.verifyLogin2FA', { id, pin: await pinAt(first, clock) }, { token: null })).status, 200);
  });
});
