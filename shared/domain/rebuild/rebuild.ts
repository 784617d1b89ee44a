import type { Aggregate } from '../aggregate.ts';

/** An operator's request to rebuild read models while Berth serves (`name` null: all of them). */
export interface RebuildRequest {
  rebuildId: string;
  name: string | null;
  requestedAt: string;
}

export const REBUILD_REQUESTED = 'ProjectionRebuildRequested';
/** Where the projections role records each finished rebuild, by its id. */
export const REBUILD_COLLECTION = 'projectionRebuild';

type RequestRebuild = { type: 'RequestRebuild'; data: RebuildRequest };
type RebuildRequested = { type: typeof REBUILD_REQUESTED; data: RebuildRequest };

/** Only a request in the log: the projections role does the rebuild when it reaches it. */
export const rebuildAggregate: Aggregate<RebuildRequest, RequestRebuild, RebuildRequested> = {
  name: 'rebuild',
  idField: 'rebuildId',
  label: 'Rebuild',
  evolve: (_state, event) => ({ ...event.data }),
  decide: (command, state) => (state ? [] : [{ type: REBUILD_REQUESTED, data: command.data }]),
};
