// A bearer credential that can be revoked: a login JWT (by its `jti`) or a long-lived API token
// (stored as a hash of its secret, shown to its owner once).
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist } from '../decisions.ts';

export interface Session {
  sessionId: string;
  accountId: string;
  kind: 'login' | 'api';
  /** SHA-256 of an API token's secret; null for a login. */
  secretHash: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export type SessionCommand =
  | { type: 'IssueApiToken'; data: Omit<Session, 'kind' | 'revokedAt'> }
  | { type: 'RevokeSession'; data: { sessionId: string; accountId: string; kind: Session['kind']; at: string } };

export type SessionEvent =
  | { type: 'ApiTokenIssued'; data: Omit<Session, 'kind' | 'revokedAt'> }
  | { type: 'SessionRevoked'; data: { sessionId: string; accountId: string; kind: Session['kind']; at: string } };

export const sessionAggregate: Aggregate<Session, SessionCommand, SessionEvent> = {
  name: 'session',
  idField: 'sessionId',
  label: 'Token',
  hidden: ['secretHash'],
  evolve(state, event) {
    switch (event.type) {
      case 'ApiTokenIssued': return { ...event.data, kind: 'api', revokedAt: null };
      case 'SessionRevoked': {
        const { sessionId, accountId, kind, at } = event.data;
        return { ...(state ?? { sessionId, accountId, kind, secretHash: null, createdAt: at }), revokedAt: at };
      }
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'IssueApiToken':
        mustNotExist(state, 'Token');
        return [{ type: 'ApiTokenIssued', data: command.data }];
      case 'RevokeSession':
        // A login JWT has no stream until it is revoked; an API token must exist.
        if (command.data.kind === 'api') mustExist(state, 'token', 'Token');
        return state?.revokedAt ? [] : [{ type: 'SessionRevoked', data: command.data }];
      default: return exhaustive(command);
    }
  },
};
