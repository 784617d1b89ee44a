// Folded aggregate states by stream, so a command does not re-read and re-fold a stream that
// this process already knows. A stale entry cannot cause a wrong decision to be stored: the
// append names the revision the state was folded at, and a conflict reloads from the log.
// Only for the embedded mode, where this process is the only writer: see processStateCache.
import { dropOldest, setNewest } from '../bounded.ts';
import { isScaledOut, type Config } from './config.ts';

export interface CachedState {
  readonly state: unknown;
  readonly revision: number;
}

/** Streams used more than once, kept while in use. */
const HOT = 4096;
/** Streams seen once, most of them just created: they wait here for a second use. */
const COLD = 1024;

/**
 * Two segments, so that a burst of creations cannot push out the streams in use: a stream enters
 * the cold one, and moves to the hot one when it is used again (an empty stream's first decision
 * is not a use); the hot one's least recently used stream goes back to the cold one.
 */
export class StateCache {
  private readonly hot = new Map<string, CachedState>();
  private readonly cold = new Map<string, CachedState>();

  get(stream: string): CachedState | undefined {
    const hot = this.hot.get(stream);
    if (hot) {
      setNewest(this.hot, stream, hot, HOT);
      return hot;
    }
    const cold = this.cold.get(stream);
    if (cold && cold.revision >= 0) {
      this.cold.delete(stream);
      this.promote(stream, cold);
    }
    return cold;
  }

  set(stream: string, entry: CachedState): void {
    if (this.hot.has(stream)) setNewest(this.hot, stream, entry, HOT);
    else setNewest(this.cold, stream, entry, COLD);
  }

  forget(stream: string): void {
    this.hot.delete(stream);
    this.cold.delete(stream);
  }

  private promote(stream: string, entry: CachedState): void {
    const demoted = this.hot.size >= HOT ? dropOldest(this.hot) : undefined;
    if (demoted) setNewest(this.cold, demoted[0], demoted[1], COLD);
    this.hot.set(stream, entry);
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
