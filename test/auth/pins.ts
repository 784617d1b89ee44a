// Two-factor pins as an authenticator app shows them, at the test clock's time.
import assert from 'node:assert/strict';
import { generate } from 'otplib';
import type { TestBerth } from '../support/berth.ts';
import type { ManualClock } from '../support/clock.ts';
import type { TestUser } from '../support/users.ts';

export const pinAt = (secret: string, clock: ManualClock) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });

/** Turns two-factor on for `user`, answering its secret. */
export async function turnOnTwoFactor(berth: TestBerth, clock: ManualClock, user: TestUser): Promise<string> {
  const { secret } = (await berth.call('auth.generate2FASecret', {}, { token: user.token })).body;
  const answer = await berth.call('auth.verify2FASetup', { pin: await pinAt(secret, clock), secret }, { token: user.token });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return secret;
}
