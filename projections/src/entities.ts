import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { MADE_AT } from '@berth/shared/ports/creation-order';
import type { Doc } from '@berth/shared/ports/read-store';
import type { Projection } from './projection.ts';

/**
 * The read model of an aggregate is its own fold: one document per stream, in the collection
 * named after it, evolved with the very `evolve` the deciders use. Each document keeps the log
 * position of the event that made it: records made in one millisecond (a burst of deployments)
 * are listed in the order the log took them, after a rebuild too.
 */
export function entityProjection(aggregate: AnyAggregate): Projection {
  return {
    name: `entity:${aggregate.name}`,
    collections: [aggregate.name],
    aggregates: [aggregate.name],
    documentPerStream: true,
    keysOf: (_event, { id }) => [{ collection: aggregate.name, id }],
    // A read-model document is the state object itself, stored as JSON.
    evolve: (doc, event) => {
      const next = aggregate.evolve(doc, event) as Doc | null;
      const made = doc ? doc[MADE_AT] : event.position;
      // Most evolves copy the document, and the position with it: no second copy then.
      return next === null || next[MADE_AT] === made ? next : { ...next, [MADE_AT]: made };
    },
  };
}
