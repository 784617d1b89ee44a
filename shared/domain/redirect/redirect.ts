import { RE2JS } from 're2js';
import { badRequest } from '../../errors.ts';
import { breaksALine } from '../../one-line.ts';
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

/**
 * The proxy (Go) compiles the regex with Go's regexp, whose syntax is RE2's: one it refuses breaks
 * the middleware for the whole application. Checked with an RE2 port, not JavaScript's RegExp,
 * which accepts what Go refuses (lookarounds, backreferences) and refuses what Go accepts (`(?i)`).
 */
function mustCompile(regex: string): void {
  try {
    RE2JS.compile(regex);
  } catch (error) {
    throw badRequest('regex', `is not a valid regular expression for the proxy (Go RE2 syntax): ${(error as Error).message}`);
  }
}

/** Written raw into the proxy's YAML file, some of them would read as line breaks there (and a URL holds none). */
function mustStayOnOneLine(rule: Pick<Redirect, 'regex' | 'replacement'>): void {
  for (const field of ['regex', 'replacement'] as const) {
    if (breaksALine(rule[field])) {
      throw badRequest(field, 'must not contain control characters or line/paragraph separators (such as U+2028): the proxy\'s YAML file would read them as line breaks');
    }
  }
}

/** A rule the proxy can load: a single-line regex in Go's syntax and a single-line replacement. */
function mustBeLoadable(rule: Pick<Redirect, 'regex' | 'replacement'>): void {
  mustStayOnOneLine(rule);
  mustCompile(rule.regex);
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
        mustBeLoadable(command.data);
        return [{ type: 'RedirectCreated', data: command.data }];
      case 'UpdateRedirect': {
        const redirect = mustExist(state, 'redirectId', LABEL);
        mustBeLoadable(command.data);
        return updated('RedirectUpdated', 'redirectId', redirect.redirectId, redirect, command.data);
      }
      case 'RemoveRedirect':
        mustExist(state, 'redirectId', LABEL);
        return [{ type: 'RedirectRemoved', data: command.data }];
      default: return exhaustive(command);
    }
  },
};
