// A bearer credential that can be revoked: a login JWT (by its `jti`) or a long-lived API token
// (stored as a hash of its secret, shown to its owner once); or a sign-in challenge, the proof that
// a password was given, which a two-factor pin turns into a login once, before it expires.
import { unauthorized } from '../../errors.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist } from '../decisions.ts';

export interface Session {
  sessionId: string;
  accountId: string;
  kind: 'login' | 'api' | 'challenge';
  /** SHA-256 of an API token's or a challenge's secret; null for a login. */
  secretHash: string | null;
  createdAt: string;
  /** When a challenge stops being accepted; null for the others. */
  expiresAt: string | null;
  /** When it was revoked, or a challenge used. */
  revokedAt: string | null;
}

type Issued = Omit<Session, 'kind' | 'revokedAt' | 'expiresAt'>;
type ChallengeUse = {
  sessionId: string;
  at: string;
  /** The account's last password change (ms since the epoch): a challenge made before it was made with the old password. */
  validFrom?: number | null;
};

export type SessionCommand =
  | { type: 'IssueApiToken'; data: Issued }
  | { type: 'IssueSignInChallenge'; data: Issued & { expiresAt: string } }
  | { type: 'UseSignInChallenge'; data: ChallengeUse }
  | { type: 'RevokeSession'; data: { sessionId: string; accountId: string; kind: Session['kind']; at: string } };

export type SessionEvent =
  | { type: 'ApiTokenIssued'; data: Issued }
  | { type: 'SignInChallengeIssued'; data: Issued & { expiresAt: string } }
  | { type: 'SignInChallengeUsed'; data: { sessionId: string; at: string } }
  | { type: 'SessionRevoked'; data: { sessionId: string; accountId: string; kind: Session['kind']; at: string } };

const madeBefore = (state: Session, validFrom: number | null | undefined) => validFrom != null && Date.parse(state.createdAt) < validFrom;

/** The challenge `use` names, when it is one, unused, unexpired and made with the current password; otherwise UNAUTHORIZED. */
export function openChallenge(state: Session | null, use: ChallengeUse): Session {
  if (!state || state.kind !== 'challenge' || state.revokedAt || !state.expiresAt || state.expiresAt <= use.at || madeBefore(state, use.validFrom)) {
    throw unauthorized('No sign-in waits for a pin (none, used, or expired): sign in again with your email and password');
  }
  return state;
}

export const sessionAggregate: Aggregate<Session, SessionCommand, SessionEvent> = {
  name: 'session',
  idField: 'sessionId',
  label: 'Token',
  hidden: ['secretHash'],
  evolve(state, event) {
    switch (event.type) {
      case 'ApiTokenIssued': return { ...event.data, kind: 'api', expiresAt: null, revokedAt: null };
      case 'SignInChallengeIssued': return { ...event.data, kind: 'challenge', revokedAt: null };
      case 'SignInChallengeUsed': return state && { ...state, revokedAt: event.data.at };
      case 'SessionRevoked': {
        const { sessionId, accountId, kind, at } = event.data;
        return { ...(state ?? { sessionId, accountId, kind, secretHash: null, createdAt: at, expiresAt: null }), revokedAt: at };
      }
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'IssueApiToken':
        mustNotExist(state, 'Token');
        return [{ type: 'ApiTokenIssued', data: command.data }];
      case 'IssueSignInChallenge':
        // Each password sign-in reopens the account's one challenge stream; no token may share it.
        if (state && state.kind !== 'challenge') mustNotExist(state, 'Token');
        return [{ type: 'SignInChallengeIssued', data: command.data }];
      case 'UseSignInChallenge':
        openChallenge(state, command.data);
        return [{ type: 'SignInChallengeUsed', data: { sessionId: command.data.sessionId, at: command.data.at } }];
      case 'RevokeSession':
        // A login JWT has no stream until it is revoked; an API token must exist.
        if (command.data.kind === 'api') mustExist(state, 'token', 'Token');
        return state?.revokedAt ? [] : [{ type: 'SessionRevoked', data: command.data }];
      default: return exhaustive(command);
    }
  },
};
