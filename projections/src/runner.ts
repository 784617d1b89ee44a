import { splitStream, type RecordedEvent, type StreamParts } from '@berth/shared/events/event';
import type { EventStore, Subscription } from '@berth/shared/ports/event-store';
import { docKey, type Doc, type DocKey, type DocWrite, type ReadStore } from '@berth/shared/ports/read-store';
import type { Projection } from './projection.ts';
import { REBUILD_REQUESTED, type RebuildRequest } from '@berth/shared/domain/rebuild/rebuild';
import { rebuildBeside } from './live-rebuild.ts';
import { rebuildIfBuiltByOtherCode } from './rebuild-at-start.ts';

/** Each document remembers the log position of the last event applied to it. */
const APPLIED = '_position';

/**
 * Applies batches of events to every projection and commits the touched documents with the
 * checkpoints in one transaction. An event at or below a document's `_position`, or below a
 * projection's checkpoint, changes nothing: replays are harmless.
 */
export class ProjectionRunner {
  private subscription: Subscription | null = null;
  private checkpoints = new Map<string, number>();
  /** The projections that read each aggregate's streams: most events concern one or two of them. */
  private readonly readers = new Map<string, Projection[]>();

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly projections: readonly Projection[],
    /** Whether this runner serves the live models, and so performs the rebuilds the log requests. */
    private readonly live = false,
  ) {
    for (const projection of projections) {
      for (const aggregate of projection.aggregates) this.readers.set(aggregate, [...this.readers.get(aggregate) ?? [], projection]);
    }
  }

  async start(): Promise<void> {
    await this.readCheckpoints();
    // Before following the log, and only in the runner that writes the live models (under the lease when scaled out).
    if (this.live && await rebuildIfBuiltByOtherCode(this.events, this.store, this.projections, this.checkpoints)) await this.readCheckpoints();
    const from = Math.min(...this.checkpoints.values());
    // Register every checkpoint, so readers can wait on them before the first event arrives.
    await this.store.commit(this.names(), from, []);
    this.subscription = this.events.subscribe(from, (batch) => this.apply(batch));
  }

  private async readCheckpoints(): Promise<void> {
    for (const projection of this.projections) {
      this.checkpoints.set(projection.name, await this.store.checkpoint(projection.name));
    }
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }

  private names(): string[] {
    return this.projections.map((projection) => projection.name);
  }

  async apply(batch: readonly RecordedEvent[]): Promise<void> {
    if (batch.length === 0) return;
    // Another runner on the same store (a rolling restart) may have gone further: never replay behind it.
    for (const [name, position] of await this.store.checkpoints()) {
      if (position > (this.checkpoints.get(name) ?? 0)) this.checkpoints.set(name, position);
    }
    const caughtUp = Math.min(...this.checkpoints.values());
    const touched: Array<[Projection, RecordedEvent, StreamParts, readonly DocKey[]]> = [];
    const keys = new Map<string, DocKey>();
    /** Documents that a stream's first event makes: there is nothing to read for them. */
    const unmade = new Set<string>();
    for (const event of batch) {
      const stream = splitStream(event.stream);
      for (const projection of this.readers.get(stream.aggregate) ?? []) {
        if (event.position <= (this.checkpoints.get(projection.name) ?? 0)) continue;
        const eventKeys = projection.keysOf(event, stream);
        if (eventKeys.length === 0) continue;
        touched.push([projection, event, stream, eventKeys]);
        for (const key of eventKeys) {
          const k = docKey(key.collection, key.id);
          keys.set(k, key);
          if (projection.documentPerStream && event.revision === 0) unmade.add(k);
        }
      }
    }
    const docs: Map<string, Doc | null> = await this.store.getMany([...keys].filter(([k]) => !unmade.has(k)).map(([, key]) => key));
    const dirty = new Set<string>();
    for (const [projection, event, stream, eventKeys] of touched) {
      for (const key of eventKeys) {
        const k = docKey(key.collection, key.id);
        const doc = docs.get(k) ?? null;
        if (doc && Number(doc[APPLIED]) >= event.position) continue;
        const next = projection.evolve(doc, event, stream);
        docs.set(k, next && { ...next, [APPLIED]: event.position });
        dirty.add(k);
      }
    }
    const writes: DocWrite[] = [...dirty].map((k) => ({ ...keys.get(k)!, doc: docs.get(k) ?? null }));
    const position = batch[batch.length - 1]!.position;
    await this.store.commit(this.names(), position, writes);
    for (const name of this.names()) this.checkpoints.set(name, Math.max(position, this.checkpoints.get(name) ?? 0));
    // A rebuild requested in this batch runs now, with the live models at `position` and no live write in between.
    for (const request of batch.filter((event) => this.live && event.type === REBUILD_REQUESTED && event.position > caughtUp)) {
      await rebuildBeside(this.events, this.store, this.projections, request.data as RebuildRequest, position);
    }
  }
}

/** Strips the bookkeeping a runner keeps on each document. */
export function withoutBookkeeping(doc: Doc): Doc {
  const { [APPLIED]: _applied, ...rest } = doc;
  return rest;
}
