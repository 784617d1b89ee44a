import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generate } from 'otplib';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { ManualClock } from '../support/clock.ts';
import { invitedUser, type TestUser } from '../support/users.ts';

const pinAt = (secret: string, clock: ManualClock) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });

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

  it('answers a login with a challenge and no token', async () => {
    const login = await berth.call('auth.login', { email: user.email, password: user.password }, { token: null });
    assert.deepEqual(login.body, { is2FAEnabled: true, id: user.id });
  });

  it('gives a token for a valid pin, and refuses the same pin replayed', async () => {
    clock.advance(60_000);
    const pin = await pinAt(secret, clock);
    const first = await berth.call('auth.verifyLogin2FA', { pin, id: user.id }, { token: null });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.ok(first.body.token);
    assert.equal((await berth.call('auth.get', {}, { token: first.body.token })).status, 200);
    const replay = await berth.call('auth.verifyLogin2FA', { pin, id: user.id }, { token: null });
    assert.equal(replay.status, 400);
    assert.equal(replay.body.token, undefined);
  });

  it('refuses a wrong pin', async () => {
    const answer = await berth.call('auth.verifyLogin2FA', { pin: '123456', id: user.id }, { token: null });
    assert.equal(answer.status, 400);
  });

  it('refuses to turn off with a sign-in older than five minutes', async () => {
    clock.advance(6 * 60_000);
    const answer = await berth.call('auth.disable2FA', {}, { token: user.token });
    assert.equal(answer.status, 403);
    assert.equal((await berth.call('auth.get', {}, { token: user.token })).body.is2FAEnabled, true);
  });

  it('turns off after a fresh sign-in with password and pin, after which login gives a token again', async () => {
    clock.advance(60_000);
    await berth.call('auth.login', { email: user.email, password: user.password }, { token: null });
    const fresh = await berth.call('auth.verifyLogin2FA', { pin: await pinAt(secret, clock), id: user.id }, { token: null });
    const answer = await berth.call('auth.disable2FA', {}, { token: fresh.body.token });
    assert.equal(answer.body.is2FAEnabled, false);
    const login = await berth.call('auth.login', { email: user.email, password: user.password }, { token: null });
    assert.ok(login.body.token);
  });
});
