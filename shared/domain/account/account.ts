import { badRequest, conflict, DomainError } from '../../errors.ts';
import type { Sealed } from '../../crypto/secrets.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist, updated } from '../decisions.ts';
import { NO_PERMISSIONS, type Permissions } from './permissions.ts';

export type Role = 'admin' | 'user';

export interface Account {
  id: string;
  email: string;
  rol: Role;
  image: string;
  createdAt: string;
  /** `invited` until the invitation is accepted with a password. */
  status: 'invited' | 'active';
  is2FAEnabled: boolean;
  permissions: Permissions;
  // Hidden: never answered.
  passwordHash: string | null;
  twoFactorSecret: Sealed | null;
  /** The last TOTP time step accepted: a pin of that step or earlier is a replay. */
  lastPinStep: number | null;
  invitationTokenHash: string | null;
  invitationExpiresAt: string | null;
  /** Set by a password change (ms since the epoch): every token issued before it has ended... */
  tokensValidFrom: number | null;
  /** ...but the login session that changed its own password, which stays signed in. */
  keptSessionId: string | null;
}

type Profile = Partial<Pick<Account, 'email' | 'rol' | 'image' | 'passwordHash' | 'tokensValidFrom' | 'keptSessionId'>>;
type AccessKind = 'project' | 'service';

export type AccountCommand =
  | { type: 'CreateAdmin'; data: Pick<Account, 'id' | 'email' | 'createdAt'> & { passwordHash: string } }
  | { type: 'InviteUser'; data: Pick<Account, 'id' | 'email' | 'createdAt'> & { invitationTokenHash: string; invitationExpiresAt: string } }
  | { type: 'AcceptInvitation'; data: { id: string; tokenHash: string; passwordHash: string; now: string } }
  | { type: 'UpdateProfile'; data: { id: string } & Profile }
  | { type: 'EnableTwoFactor'; data: { id: string; secret: Sealed; step: number } }
  | { type: 'UseTwoFactorPin'; data: { id: string; step: number } }
  | { type: 'DisableTwoFactor'; data: { id: string } }
  | { type: 'AssignPermissions'; data: { id: string; permissions: Permissions } }
  | { type: 'GrantAccess'; data: { id: string; kind: AccessKind; resourceId: string } }
  | { type: 'RemoveAccount'; data: { id: string } }
  /** Makes way for a new invitation to its email; refused unless the account is an invitation expired at `now`. */
  | { type: 'RemoveExpiredInvitation'; data: { id: string; now: string } };

export type AccountEvent =
  | { type: 'AdminCreated'; data: Pick<Account, 'id' | 'email' | 'createdAt'> & { passwordHash: string } }
  | { type: 'UserInvited'; data: Pick<Account, 'id' | 'email' | 'createdAt'> & { invitationTokenHash: string; invitationExpiresAt: string } }
  | { type: 'InvitationAccepted'; data: { id: string; passwordHash: string } }
  | { type: 'ProfileUpdated'; data: { id: string } & Profile }
  | { type: 'TwoFactorEnabled'; data: { id: string; secret: Sealed; step: number } }
  | { type: 'TwoFactorPinUsed'; data: { id: string; step: number } }
  | { type: 'TwoFactorDisabled'; data: { id: string } }
  | { type: 'PermissionsAssigned'; data: { id: string; permissions: Permissions } }
  | { type: 'AccessGranted'; data: { id: string; kind: AccessKind; resourceId: string } }
  | { type: 'AccountRemoved'; data: { id: string } };

const LABEL = 'Account';
// The same answer for every way an invitation can be wrong, so it reveals nothing.
const invalidInvitation = () => new DomainError('BAD_REQUEST', 'The invitation is invalid or has expired',
  [{ message: 'token names an invitation that is invalid or has expired', path: 'token' }]);

const fresh = (data: Pick<Account, 'id' | 'email' | 'createdAt'>, rol: Role): Account => ({
  ...data, rol, image: '', status: 'active', is2FAEnabled: false, permissions: NO_PERMISSIONS,
  passwordHash: null, twoFactorSecret: null, lastPinStep: null, invitationTokenHash: null, invitationExpiresAt: null,
  tokensValidFrom: null, keptSessionId: null,
});

export const accountAggregate: Aggregate<Account, AccountCommand, AccountEvent> = {
  name: 'account',
  idField: 'id',
  label: LABEL,
  hidden: ['passwordHash', 'twoFactorSecret', 'lastPinStep', 'invitationTokenHash', 'tokensValidFrom', 'keptSessionId'],
  evolve(state, event) {
    switch (event.type) {
      case 'AdminCreated': return { ...fresh(event.data, 'admin'), passwordHash: event.data.passwordHash };
      case 'UserInvited': {
        const { invitationTokenHash, invitationExpiresAt, ...data } = event.data;
        return { ...fresh(data, 'user'), status: 'invited', invitationTokenHash, invitationExpiresAt };
      }
      case 'InvitationAccepted':
        return state && { ...state, status: 'active', passwordHash: event.data.passwordHash, invitationTokenHash: null, invitationExpiresAt: null };
      case 'ProfileUpdated': return state && { ...state, ...event.data };
      case 'TwoFactorEnabled':
        return state && { ...state, is2FAEnabled: true, twoFactorSecret: event.data.secret, lastPinStep: event.data.step };
      case 'TwoFactorPinUsed': return state && { ...state, lastPinStep: event.data.step };
      case 'TwoFactorDisabled': return state && { ...state, is2FAEnabled: false, twoFactorSecret: null };
      case 'PermissionsAssigned': return state && { ...state, permissions: event.data.permissions };
      case 'AccessGranted': {
        if (!state) return state;
        const list = event.data.kind === 'project' ? 'accesedProjects' : 'accesedServices';
        return { ...state, permissions: { ...state.permissions, [list]: [...state.permissions[list], event.data.resourceId] } };
      }
      case 'AccountRemoved': return null;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateAdmin':
        mustNotExist(state, LABEL, 'id');
        return [{ type: 'AdminCreated', data: command.data }];
      case 'InviteUser':
        mustNotExist(state, LABEL, 'id');
        return [{ type: 'UserInvited', data: command.data }];
      case 'AcceptInvitation': return acceptInvitation(command.data, state);
      case 'UpdateProfile': {
        const account = mustExist(state, 'id', LABEL);
        return updated('ProfileUpdated', 'id', account.id, account, command.data);
      }
      case 'EnableTwoFactor':
        mustNotHaveTwoFactor(mustExist(state, 'id', LABEL));
        return [{ type: 'TwoFactorEnabled', data: command.data }];
      case 'UseTwoFactorPin': {
        const account = mustExist(state, 'id', LABEL);
        if (account.lastPinStep !== null && command.data.step <= account.lastPinStep) {
          throw badRequest('pin', 'was already used');
        }
        return [{ type: 'TwoFactorPinUsed', data: command.data }];
      }
      case 'DisableTwoFactor': {
        const account = mustExist(state, 'id', LABEL);
        return account.is2FAEnabled ? [{ type: 'TwoFactorDisabled', data: command.data }] : [];
      }
      case 'AssignPermissions': {
        const account = mustExist(state, 'userId', LABEL);
        if (account.rol === 'admin') throw conflict('names an admin, who has every permission already', 'userId');
        return [{ type: 'PermissionsAssigned', data: command.data }];
      }
      case 'GrantAccess': {
        const account = mustExist(state, 'id', LABEL);
        const list = command.data.kind === 'project' ? account.permissions.accesedProjects : account.permissions.accesedServices;
        return account.rol === 'admin' || list.includes(command.data.resourceId) ? [] : [{ type: 'AccessGranted', data: command.data }];
      }
      case 'RemoveAccount':
        // Decided here, on the account as the log holds it: a promotion that landed first is seen.
        if (mustExist(state, 'authId', LABEL).rol === 'admin') throw conflict('names the admin account, which cannot be removed', 'authId');
        return [{ type: 'AccountRemoved', data: command.data }];
      case 'RemoveExpiredInvitation':
        if (!state || !isExpiredInvitation(state, command.data.now)) {
          throw conflict('is already taken by an account or by an invitation that has not expired', 'email');
        }
        return [{ type: 'AccountRemoved', data: { id: command.data.id } }];
      default: return exhaustive(command);
    }
  },
};

/** Whether a password change since a token was issued (`issuedAt`, ms) has ended it. */
export const endedByPasswordChange = (account: Account, token: { sessionId: string; issuedAt: number }): boolean =>
  account.tokensValidFrom !== null && token.issuedAt < account.tokensValidFrom && token.sessionId !== account.keptSessionId;

/** An invitation nobody accepted in time: it can never join, so its email may be invited again. */
export const isExpiredInvitation = (account: Pick<Account, 'status' | 'invitationExpiresAt'>, now: string): boolean =>
  account.status === 'invited' && (account.invitationExpiresAt ?? '') <= now;

/** A second secret never replaces an active one: that would skip disable2FA's demand for a fresh sign-in. */
export function mustNotHaveTwoFactor(account: Account): void {
  if (account.is2FAEnabled) throw conflict('Two-factor is already on; disable it first (auth.disable2FA)');
}

function acceptInvitation(data: Extract<AccountCommand, { type: 'AcceptInvitation' }>['data'], state: Account | null): AccountEvent[] {
  if (!state || state.status !== 'invited' || state.invitationTokenHash !== data.tokenHash || isExpiredInvitation(state, data.now)) {
    throw invalidInvitation();
  }
  return [{ type: 'InvitationAccepted', data: { id: data.id, passwordHash: data.passwordHash } }];
}
