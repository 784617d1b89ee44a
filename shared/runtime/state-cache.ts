// Folded aggregate states by stream, so a command does not re-read and re-fold a stream that
// this process already knows. A stale entry cannot cause a wrong decision to be stored: the
// append names the revision the state was folded at, and a conflict reloads from the log.
// Only for the embedded mode, where this process is the only writer: see processStateCache.
import { isScaledOut, type Config } from './config.ts';

export interface CachedState {
  readonly state: unknown;
  readonly revision: number;
}

const LIMIT = 4096;

export class StateCache {
  private readonly entries = new Map<string, CachedState>();

  /** A hit becomes the newest entry, so the streams in use stay while one-off ones (creations) go. */
  get(stream: string): CachedState | undefined {
    const entry = this.entries.get(stream);
    if (entry) {
      this.entries.delete(stream);
      this.entries.set(stream, entry);
    }
    return entry;
  }

  set(stream: string, entry: CachedState): void {
    this.entries.delete(stream);
    if (this.entries.size >= LIMIT) this.entries.delete(this.entries.keys().next().value!);
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

/**
 * The cache the API and the reactors of this process share, or none when scaled out: another
 * process may have appended since, and a stale state could answer a no-op or a refusal that no
 * append would ever check.
 */
export const processStateCache = ({ config, eventStore }: { config: Config; eventStore: object }): StateCache | undefined =>
  isScaledOut(config) ? undefined : stateCacheOf(eventStore);
