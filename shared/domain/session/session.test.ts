import { describe, it } from 'node:test';
import { specOf } from '../testing.ts';
import { sessionAggregate, type SessionEvent } from './session.ts';

const issued: SessionEvent = {
  type: 'SignInChallengeIssued',
  data: { sessionId: 's', accountId: 'a', secretHash: null, createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-01T00:05:00.000Z' },
};
const use = (at: string) => ({ type: 'UseSignInChallenge' as const, data: { sessionId: 's', at } });
const used: SessionEvent = { type: 'SignInChallengeUsed', data: { sessionId: 's', at: '2026-01-01T00:01:00.000Z' } };

describe('sign-in challenge', () => {
  it('is used once, before it expires', () => {
    specOf(sessionAggregate).given([issued]).when(use('2026-01-01T00:04:59.000Z'))
      .then([{ type: 'SignInChallengeUsed', data: { sessionId: 's', at: '2026-01-01T00:04:59.000Z' } }]);
  });
  it('is refused used, expired, or never opened', () => {
    specOf(sessionAggregate).given([issued, used]).when(use('2026-01-01T00:02:00.000Z')).thenFails('UNAUTHORIZED');
    specOf(sessionAggregate).given([issued]).when(use('2026-01-01T00:05:00.000Z')).thenFails('UNAUTHORIZED');
    specOf(sessionAggregate).given([]).when(use('2026-01-01T00:01:00.000Z')).thenFails('UNAUTHORIZED');
  });
  it('is refused when made before the password last changed, as an expired one', () => {
    const changedAt = Date.parse('2026-01-01T00:00:30.000Z');
    const useAfterChange = { type: 'UseSignInChallenge' as const, data: { sessionId: 's', at: '2026-01-01T00:01:00.000Z', validFrom: changedAt } };
    specOf(sessionAggregate).given([issued]).when(useAfterChange).thenFails('UNAUTHORIZED');
    specOf(sessionAggregate).given([issued]).when({ ...useAfterChange, data: { ...useAfterChange.data, validFrom: Date.parse(issued.data.createdAt) } })
      .then([{ type: 'SignInChallengeUsed', data: { sessionId: 's', at: '2026-01-01T00:01:00.000Z' } }]);
  });
  it('is opened again by the next password sign-in', () => {
    const again = { ...issued.data, createdAt: '2026-01-01T00:02:00.000Z', expiresAt: '2026-01-01T00:07:00.000Z' };
    specOf(sessionAggregate).given([issued, used]).when({ type: 'IssueSignInChallenge', data: again })
      .then([{ type: 'SignInChallengeIssued', data: again }]);
  });
});
