import { describe, it } from 'node:test';
import type { Sealed } from '../../crypto/secrets.ts';
import { specOf } from '../testing.ts';
import { securityAggregate, type Security } from './security.ts';

const spec = specOf(securityAggregate);
const user: Security = {
  securityId: 's1', applicationId: 'a1', username: 'alice', password: 'enc:v1:a' as Sealed, createdAt: '2026-01-01T00:00:00.000Z',
};
const created = { type: 'SecurityCreated', data: user } as const;

describe('security decider', () => {
  it('creates a user whose name the application does not have yet', () => {
    spec.given([]).when({ type: 'CreateSecurity', data: { ...user, taken: [{ securityId: 's0', username: 'bob' }] } }).then([created]);
  });
  it('refuses a second user of one name in one application, naming username', () => {
    spec.given([]).when({ type: 'CreateSecurity', data: { ...user, taken: [{ securityId: 's0', username: 'alice' }] } })
      .thenFails('CONFLICT', 'username');
  });
  it('refuses a name basic authentication cannot carry (a colon, a control character), naming username', () => {
    for (const username of ['al:ice', 'al\nice', 'alice\u0000']) {
      spec.given([]).when({ type: 'CreateSecurity', data: { ...user, username, taken: [] } }).thenFails('BAD_REQUEST', 'username');
      spec.given([created])
        .when({ type: 'UpdateSecurity', data: { securityId: 's1', username, password: user.password, taken: [{ securityId: 's1', username: 'alice' }] } })
        .thenFails('BAD_REQUEST', 'username');
    }
  });
  it('refuses a name with a line or paragraph separator, which the proxy file would read as a line break, naming username', () => {
    for (const username of ['ann\u2028ex', 'ann\u2029ex', 'ann\u0085ex', 'ann\u009bex']) {
      spec.given([]).when({ type: 'CreateSecurity', data: { ...user, username, taken: [] } }).thenFails('BAD_REQUEST', 'username');
    }
  });
  it('lets a user keep its name and change its password', () => {
    spec.given([created])
      .when({ type: 'UpdateSecurity', data: { securityId: 's1', username: 'alice', password: 'enc:v1:b' as Sealed, taken: [{ securityId: 's1', username: 'alice' }] } })
      .then([{ type: 'SecurityUpdated', data: { securityId: 's1', password: 'enc:v1:b' as Sealed } }]);
  });
  it('refuses to rename a user to a sibling name', () => {
    spec.given([created])
      .when({ type: 'UpdateSecurity', data: { securityId: 's1', username: 'bob', password: user.password, taken: [{ securityId: 's2', username: 'bob' }] } })
      .thenFails('CONFLICT', 'username');
  });
  it('removes a user, then answers NOT_FOUND naming securityId', () => {
    spec.given([created]).when({ type: 'RemoveSecurity', data: { securityId: 's1' } })
      .then([{ type: 'SecurityRemoved', data: { securityId: 's1' } }]);
    spec.given([]).when({ type: 'RemoveSecurity', data: { securityId: 's1' } }).thenFails('NOT_FOUND', 'securityId');
  });
});
