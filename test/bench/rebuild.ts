// Projection rebuild speed: a log of 100,000 project events (creations and renames) appended
// straight through the EventStore port, then replayed into a fresh read store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import type { NewEvent } from '@berth/shared/events/event';
import type { ReadStore } from '@berth/shared/ports/read-store';
import { newId } from '@berth/shared/ids';
import { rebuildInto } from '@berth/projections/rebuild';

export interface RebuildFigures {
  readonly events: number;
  readonly appendPerSecond: number;
  readonly rebuildPerSecond: number;
  readonly documents: number;
}

const EVENTS_PER_STREAM = 5;
const STREAMS_PER_TICK = 1000;

function history(projectId: string, occurredAt: string): NewEvent[] {
  const metadata = { actorId: 'bench', correlationId: newId(), causationId: null, occurredAt, schemaVersion: 1 };
  const events: NewEvent[] = [{
    id: newId(), type: 'ProjectCreated', metadata,
    data: { projectId, name: 'bench project', description: 'a project of the rebuild benchmark', createdAt: occurredAt },
  }];
  for (let i = 1; i < EVENTS_PER_STREAM; i++) {
    events.push({ id: newId(), type: 'ProjectUpdated', metadata, data: { projectId, name: `bench project, rename ${i}` } });
  }
  return events;
}

/** `openTarget` gives the read store to rebuild into (a fresh SQLite file of `dir` by default). */
export async function benchRebuild(total = 100_000, openTarget?: (dir: string) => Promise<ReadStore>): Promise<RebuildFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-bench-rebuild-'));
  const events = new SqliteEventStore(join(dir, 'events.db'), { synchronous: 'FULL' });
  const target = openTarget ? await openTarget(dir) : new SqliteReadStore(join(dir, 'read-models.db'));
  try {
    const streams = total / EVENTS_PER_STREAM;
    const occurredAt = new Date().toISOString();
    const appendStart = performance.now();
    for (let done = 0; done < streams; done += STREAMS_PER_TICK) {
      // Appends issued in one tick share a transaction (group commit).
      await Promise.all(Array.from({ length: Math.min(STREAMS_PER_TICK, streams - done) }, () => {
        const projectId = newId();
        return events.append(`project-${projectId}`, history(projectId, occurredAt), 'no_stream');
      }));
    }
    const appendSeconds = (performance.now() - appendStart) / 1000;
    const rebuildStart = performance.now();
    const applied = await rebuildInto(events, target);
    const rebuildSeconds = (performance.now() - rebuildStart) / 1000;
    if (applied !== total) throw new Error(`rebuild applied ${applied} of ${total} events`);
    const documents = (await target.all('project')).length;
    if (documents !== streams) throw new Error(`rebuild made ${documents} projects of ${streams}`);
    return { events: total, appendPerSecond: total / appendSeconds, rebuildPerSecond: total / rebuildSeconds, documents };
  } finally {
    await events.close();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
