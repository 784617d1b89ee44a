import { describe, it } from 'node:test';
import { specOf } from '../testing.ts';
import { accountAggregate, type AccountEvent } from './account.ts';
import { NO_PERMISSIONS } from './permissions.ts';

const spec = specOf(accountAggregate);
const invited: AccountEvent = {
  type: 'UserInvited',
  data: { id: 'u1', email: 'u@x.io', createdAt: '2026-01-01T00:00:00.000Z', invitationTokenHash: 'h1', invitationExpiresAt: '2026-01-02T00:00:00.000Z' },
};
const accept = (tokenHash: string, now: string) => ({ type: 'AcceptInvitation' as const, data: { id: 'u1', tokenHash, passwordHash: 'p', now } });

describe('account decider', () => {
  it('accepts an invitation with its token before it expires', () => {
    spec.given([invited]).when(accept('h1', '2026-01-01T12:00:00.000Z'))
      .then([{ type: 'InvitationAccepted', data: { id: 'u1', passwordHash: 'p' } }]);
  });
  it('refuses an expired invitation', () => {
    spec.given([invited]).when(accept('h1', '2026-01-02T00:00:00.000Z')).thenFails('BAD_REQUEST', 'token');
  });
  it('refuses an invitation token of another account', () => {
    spec.given([invited]).when(accept('other', '2026-01-01T12:00:00.000Z')).thenFails('BAD_REQUEST', 'token');
  });
  it('refuses an invitation used once already', () => {
    spec.given([invited, { type: 'InvitationAccepted', data: { id: 'u1', passwordHash: 'p' } }])
      .when(accept('h1', '2026-01-01T12:00:00.000Z')).thenFails('BAD_REQUEST', 'token');
  });
  it('refuses a two-factor pin of a step already used', () => {
    spec.given([invited, { type: 'TwoFactorEnabled', data: { id: 'u1', secret: 'enc:v1:x', step: 100 } }])
      .when({ type: 'UseTwoFactorPin', data: { id: 'u1', step: 100 } }).thenFails('BAD_REQUEST', 'pin');
  });
  it('records a pin of a later step', () => {
    spec.given([invited, { type: 'TwoFactorEnabled', data: { id: 'u1', secret: 'enc:v1:x', step: 100 } }])
      .when({ type: 'UseTwoFactorPin', data: { id: 'u1', step: 101 } })
      .then([{ type: 'TwoFactorPinUsed', data: { id: 'u1', step: 101 } }]);
  });
  it('grants access to a new project once', () => {
    const granted: AccountEvent = { type: 'AccessGranted', data: { id: 'u1', kind: 'project', resourceId: 'p1' } };
    spec.given([invited]).when({ type: 'GrantAccess', data: granted.data }).then([granted]);
    spec.given([invited, granted]).when({ type: 'GrantAccess', data: granted.data }).then([]);
  });
  it('refuses removing an account that is an admin, and removes a user', () => {
    const promoted: AccountEvent = { type: 'ProfileUpdated', data: { id: 'u1', rol: 'admin' } };
    spec.given([invited, promoted]).when({ type: 'RemoveAccount', data: { id: 'u1' } }).thenFails('CONFLICT', 'authId');
    spec.given([invited]).when({ type: 'RemoveAccount', data: { id: 'u1' } }).then([{ type: 'AccountRemoved', data: { id: 'u1' } }]);
  });
  it('refuses permissions for the admin, who has them all', () => {
    spec.given([{ type: 'AdminCreated', data: { id: 'a', email: 'a@x.io', createdAt: 'x', passwordHash: 'p' } }])
      .when({ type: 'AssignPermissions', data: { id: 'a', permissions: NO_PERMISSIONS } }).thenFails('CONFLICT', 'userId');
  });
});
