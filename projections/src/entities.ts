import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import type { Doc } from '@berth/shared/ports/read-store';
import type { Projection } from './projection.ts';

/**
 * The read model of an aggregate is its own fold: one document per stream, in the collection
 * named after it, evolved with the very `evolve` the deciders use.
 */
export function entityProjection(aggregate: AnyAggregate): Projection {
  return {
    name: `entity:${aggregate.name}`,
    collections: [aggregate.name],
    aggregates: [aggregate.name],
    documentPerStream: true,
    keysOf: (_event, { id }) => [{ collection: aggregate.name, id }],
    // A read-model document is the state object itself, stored as JSON.
    evolve: (doc, event) => aggregate.evolve(doc, event) as Doc | null,
  };
}
