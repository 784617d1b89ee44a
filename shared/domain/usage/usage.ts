// A resource others depend on (a destination backups upload to, a registry applications push
// to, a project its services live in, an application its ports, redirects and users hang off, a
// database its backups dump) keeps who uses it in a stream of its own, `usage-<kind>:<id>`, appended with the revision
// that was read: a user is added only while the resource is kept, and the resource is let go
// only while nobody uses it, so a removal and a new use can never both win.
import { conflict, notFound } from '../../errors.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';

export interface Usage {
  key: string;
  users: string[];
  retired: boolean;
}

/** What the messages say: the resource's label, its id field, and what its users are called. */
export interface UsageWords {
  readonly label: string;
  readonly field: string;
  readonly users: string;
  /**
   * The users' names by id, as the caller read them (an application's appName), so a refusal can
   * say which users to change; one missing (added since) is counted but not named.
   */
  readonly names?: Readonly<Record<string, string>>;
}

/** At most this many users are named in a refusal; the rest are counted. */
export const NAMED_USERS = 5;

/** `2 application(s): shop-0a1b2c, web-1d2e3f`, or the count alone when the caller read no names. */
function usersSaid(users: readonly string[], words: UsageWords): string {
  const named = users.flatMap((user) => words.names?.[user] ?? []);
  if (named.length === 0) return `${users.length} ${words.users}`;
  const shown = named.slice(0, NAMED_USERS);
  const more = users.length - shown.length;
  return `${users.length} ${words.users}: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

export type UsageCommand =
  | { type: 'Use'; data: { key: string; user: string; words: UsageWords } }
  | { type: 'StopUsing'; data: { key: string; user: string } }
  | { type: 'Retire'; data: { key: string; words: UsageWords; why: string } };

export type UsageEvent =
  | { type: 'UsageStarted'; data: { key: string; user: string } }
  | { type: 'UsageEnded'; data: { key: string; user: string } }
  | { type: 'UsageRetired'; data: { key: string } };

export type UsageKind = 'destination' | 'registry' | 'project' | 'application' | 'database';

export const usageKey = (kind: UsageKind, id: string) => `${kind}:${id}`;

const empty = (key: string): Usage => ({ key, users: [], retired: false });

export const usageAggregate: Aggregate<Usage, UsageCommand, UsageEvent> = {
  name: 'usage',
  idField: 'key',
  label: 'Usage',
  evolve(state, event) {
    const current = state ?? empty(event.data.key);
    switch (event.type) {
      case 'UsageStarted': return { ...current, users: [...current.users, event.data.user] };
      case 'UsageEnded': return { ...current, users: current.users.filter((user) => user !== event.data.user) };
      case 'UsageRetired': return { ...current, retired: true };
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'Use': {
        const { key, user, words } = command.data;
        if (state?.retired) throw notFound(words.field, words.label);
        return state?.users.includes(user) ? [] : [{ type: 'UsageStarted', data: { key, user } }];
      }
      case 'StopUsing':
        return state?.users.includes(command.data.user) ? [{ type: 'UsageEnded', data: command.data }] : [];
      case 'Retire': {
        const { key, words, why } = command.data;
        const users = state?.users ?? [];
        if (users.length > 0) throw conflict(`${why} (${usersSaid(users, words)})`, words.field);
        return state?.retired ? [] : [{ type: 'UsageRetired', data: { key } }];
      }
      default: return exhaustive(command);
    }
  },
};
