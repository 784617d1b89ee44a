import { badRequest } from '../../errors.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist, updated } from '../decisions.ts';

/** A redirect the proxy applies to an application's requests. */
export interface Redirect {
  redirectId: string;
  regex: string;
  replacement: string;
  permanent: boolean;
  applicationId: string;
  createdAt: string;
}

type Rule = Pick<Redirect, 'redirectId' | 'regex' | 'replacement' | 'permanent'>;

export type RedirectCommand =
  | { type: 'CreateRedirect'; data: Redirect }
  | { type: 'UpdateRedirect'; data: Rule }
  | { type: 'RemoveRedirect'; data: { redirectId: string } };

export type RedirectEvent =
  | { type: 'RedirectCreated'; data: Redirect }
  | { type: 'RedirectUpdated'; data: Pick<Redirect, 'redirectId'> & Partial<Redirect> }
  | { type: 'RedirectRemoved'; data: { redirectId: string } };

const LABEL = 'Redirect';

/** A regex that does not compile would break the proxy's middleware for the whole application. */
function mustCompile(regex: string): void {
  try {
    new RegExp(regex);
  } catch (error) {
    throw badRequest('regex', `is not a valid regular expression (${(error as Error).message})`);
  }
}

export const redirectAggregate: Aggregate<Redirect, RedirectCommand, RedirectEvent> = {
  name: 'redirect',
  idField: 'redirectId',
  label: LABEL,
  evolve(state, event) {
    switch (event.type) {
      case 'RedirectCreated': return { ...event.data };
      case 'RedirectUpdated': return state && { ...state, ...event.data };
      case 'RedirectRemoved': return null;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateRedirect':
        mustNotExist(state, LABEL, 'redirectId');
        mustCompile(command.data.regex);
        return [{ type: 'RedirectCreated', data: command.data }];
      case 'UpdateRedirect': {
        const redirect = mustExist(state, 'redirectId', LABEL);
        mustCompile(command.data.regex);
        return updated('RedirectUpdated', 'redirectId', redirect.redirectId, redirect, command.data);
      }
      case 'RemoveRedirect':
        mustExist(state, 'redirectId', LABEL);
        return [{ type: 'RedirectRemoved', data: command.data }];
      default: return exhaustive(command);
    }
  },
};
