// A rebuild while Berth serves: the chosen read models are replayed from position 0 into a
// scratch store beside the live one, up to where the live ones are, then switched in one
// transaction, so queries see the old documents until the new ones are complete.
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import { REBUILD_COLLECTION, type RebuildRequest } from '@berth/shared/domain/rebuild/rebuild';
import type { EventStore } from '@berth/shared/ports/event-store';
import { docKey, type DocWrite, type ReadStore } from '@berth/shared/ports/read-store';
import type { Projection } from './projection.ts';
import { rebuildInto } from './rebuild.ts';

/** A scratch store in memory that remembers the last write of every document. */
class Scratch extends SqliteReadStore {
  readonly written = new Map<string, DocWrite>();

  constructor() {
    super(':memory:');
  }

  override async commit(checkpoints: readonly string[], position: number, writes: readonly DocWrite[]): Promise<void> {
    for (const write of writes) this.written.set(docKey(write.collection, write.id), write);
    await super.commit(checkpoints, position, writes);
  }
}

export async function rebuildBeside(
  events: EventStore, live: ReadStore, all: readonly Projection[], request: RebuildRequest, until: number,
): Promise<void> {
  const started = performance.now();
  const selected = all.filter((projection) => request.name === null || projection.name === request.name);
  const scratch = new Scratch();
  try {
    await rebuildInto(events, scratch, 5000, { projections: selected, until });
    const docs = [...scratch.written.values()].filter((write) => write.doc !== null);
    const collections = [...new Set([...selected.flatMap((projection) => projection.collections ?? []), ...docs.map((write) => write.collection)])];
    const record = {
      rebuildId: request.rebuildId, name: request.name, status: 'done', position: until, documents: docs.length,
      ms: Math.round(performance.now() - started),
    };
    await live.replaceCollections(collections, [...docs, { collection: REBUILD_COLLECTION, id: request.rebuildId, doc: record }],
      selected.map((projection) => projection.name), until);
  } finally {
    await scratch.close();
  }
}
