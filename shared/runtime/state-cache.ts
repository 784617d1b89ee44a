// Folded aggregate states by stream, so a command does not re-read and re-fold a stream that
// this process already knows. A stale entry cannot cause a wrong decision to be stored: the
// append names the revision the state was folded at, and a conflict reloads from the log.

export interface CachedState {
  readonly state: unknown;
  readonly revision: number;
}

const LIMIT = 4096;

export class StateCache {
  private readonly entries = new Map<string, CachedState>();

  get(stream: string): CachedState | undefined {
    return this.entries.get(stream);
  }

  set(stream: string, entry: CachedState): void {
    if (!this.entries.has(stream) && this.entries.size >= LIMIT) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(stream, entry);
  }

  forget(stream: string): void {
    this.entries.delete(stream);
  }
}

const caches = new WeakMap<object, StateCache>();

/** One cache per event store. */
export function stateCacheOf(eventStore: object): StateCache {
  let cache = caches.get(eventStore);
  if (!cache) caches.set(eventStore, (cache = new StateCache()));
  return cache;
}
