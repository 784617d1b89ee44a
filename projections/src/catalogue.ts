import { aggregates, lookups } from '@berth/shared/domain/index';
import type { ReadStore } from '@berth/shared/ports/read-store';
import { entityProjection } from './entities.ts';
import type { Projection } from './projection.ts';
import { pendingActions } from './pending-actions.ts';
import { serviceSummaries } from './service-summaries.ts';

/** Every read model Berth keeps. */
export const projections: readonly Projection[] = [...aggregates.map(entityProjection), serviceSummaries, pendingActions];

export async function prepareReadStore(store: ReadStore): Promise<void> {
  for (const { collection, field } of lookups) await store.ensureIndex(collection, field);
}
