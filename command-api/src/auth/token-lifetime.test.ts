import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { ManualClock } from '../../../test/support/clock.ts';
import { issueLoginToken, verifyLoginToken, type TokenInfra } from './tokens.ts';

const instance = (clock: ManualClock, tokenLifetimeSeconds: number): TokenInfra =>
  ({ clock, tokenKey: randomBytes(32), config: { tokenLifetimeSeconds } });

describe('a login token\'s lifetime', () => {
  it('is at least BERTH_TOKEN_LIFETIME_SECONDS, however late in its second it was issued', async () => {
    for (const offsetMs of [0, 1, 500, 999]) {
      const clock = new ManualClock(Date.parse('2026-06-01T12:00:00.000Z') + offsetMs);
      const infra = instance(clock, 1);
      const token = await issueLoginToken(infra, 'account-1');
      clock.advance(999);
      assert.equal((await verifyLoginToken(infra, token)).accountId, 'account-1', `issued ${offsetMs} ms into its second`);
    }
  });

  it('ends within a second after it, never lasting two lifetimes', async () => {
    const clock = new ManualClock(Date.parse('2026-06-01T12:00:00.999Z'));
    const infra = instance(clock, 1);
    const token = await issueLoginToken(infra, 'account-1');
    clock.advance(2000);
    await assert.rejects(verifyLoginToken(infra, token), /Invalid or expired token/);
  });
});
