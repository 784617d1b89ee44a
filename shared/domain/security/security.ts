import { basicAuthNameProblem, basicAuthPasswordProblem } from '../../crypto/htpasswd.ts';
import type { Sealed } from '../../crypto/secrets.ts';
import { badRequest, conflict } from '../../errors.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist, updated } from '../decisions.ts';

/** A basic-auth user in front of an application. */
export interface Security {
  securityId: string;
  applicationId: string;
  username: string;
  /** Sealed before it reaches the decider: the proxy needs it back to build its htpasswd entry. */
  password: Sealed;
  createdAt: string;
}

/** A user the application already has, as the handler read it. */
export type User = Pick<Security, 'securityId' | 'username'>;

type Credentials = Pick<Security, 'securityId' | 'username' | 'password'>;

export type SecurityCommand =
  | { type: 'CreateSecurity'; data: Security & { taken: readonly User[] } }
  | { type: 'UpdateSecurity'; data: Credentials & { taken: readonly User[] } }
  | { type: 'RemoveSecurity'; data: { securityId: string } };

export type SecurityEvent =
  | { type: 'SecurityCreated'; data: Security }
  | { type: 'SecurityUpdated'; data: Pick<Security, 'securityId'> & Partial<Security> }
  | { type: 'SecurityRemoved'; data: { securityId: string } };

const LABEL = 'Security';

/** Checked before anything is claimed, and by the decider. */
export function mustBeBasicAuthName(username: string): void {
  const problem = basicAuthNameProblem(username);
  if (problem) throw badRequest('username', problem);
}

/**
 * Checked by the handler, before the password is sealed: the decider sees only the sealed value.
 */
export function mustBeBasicAuthPassword(password: string): void {
  const problem = basicAuthPasswordProblem(password);
  if (problem) throw badRequest('password', problem);
}

/** Basic auth tells users apart by name only: two entries with one name would shadow each other. */
function mustBeUnique(user: User, taken: readonly User[]): void {
  if (taken.some((other) => other.securityId !== user.securityId && other.username === user.username)) {
    throw conflict(`username "${user.username}" already exists for this application`, 'username');
  }
}

export const securityAggregate: Aggregate<Security, SecurityCommand, SecurityEvent> = {
  name: 'security',
  idField: 'securityId',
  label: LABEL,
  evolve(state, event) {
    switch (event.type) {
      case 'SecurityCreated': return { ...event.data };
      case 'SecurityUpdated': return state && { ...state, ...event.data };
      case 'SecurityRemoved': return null;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateSecurity': {
        mustNotExist(state, LABEL, 'securityId');
        const { taken, ...security } = command.data;
        mustBeBasicAuthName(security.username);
        mustBeUnique(security, taken);
        return [{ type: 'SecurityCreated', data: security }];
      }
      case 'UpdateSecurity': {
        const security = mustExist(state, 'securityId', LABEL);
        const { taken, ...credentials } = command.data;
        mustBeBasicAuthName(credentials.username);
        mustBeUnique(credentials, taken);
        return updated('SecurityUpdated', 'securityId', security.securityId, security, credentials);
      }
      case 'RemoveSecurity':
        mustExist(state, 'securityId', LABEL);
        return [{ type: 'SecurityRemoved', data: command.data }];
      default: return exhaustive(command);
    }
  },
};
