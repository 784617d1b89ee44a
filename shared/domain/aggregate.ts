import type { DomainEvent } from '../events/event.ts';

/**
 * A decider, as Emmett shapes it: pure functions over an aggregate's history. A state of `null`
 * means the aggregate does not exist (never created, or removed).
 */
export interface Aggregate<S, C extends DomainEvent, E extends DomainEvent> {
  /** Stream prefix and read-model collection name; no dash. */
  readonly name: string;
  /** The id field of the record (`projectId`, `applicationId`, ...). */
  readonly idField: string;
  /** The human name used in errors: "Project not found". */
  readonly label: string;
  evolve(state: S | null, event: E): S | null;
  decide(command: C, state: S | null): readonly E[];
  /** Fields of the state that no answer ever shows (private keys, password hashes). */
  readonly hidden?: readonly string[];
  /**
   * Fields that work under way changes on its own (a service's status as its deployment moves on):
   * a change read before such a change still applies over it (see executeAt).
   */
  readonly volatile?: readonly string[];
}

/** Any aggregate, for registries that hold several (methods make the parameters bivariant). */
export type AnyAggregate = Aggregate<object, DomainEvent, DomainEvent>;

export const fold = <S, E extends DomainEvent>(
  aggregate: { evolve: (state: S | null, event: E) => S | null },
  events: readonly E[],
  from: S | null = null,
): S | null => events.reduce<S | null>(aggregate.evolve, from);

export function exhaustive(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
