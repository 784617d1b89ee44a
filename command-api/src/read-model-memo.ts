// Values worked out from the read models, kept while the read store's version stays the same:
// any committed write moves it, so a kept value is never older than the models it came from.
import { WeighedMap } from '@berth/shared/bounded';
import type { ReadStore } from '@berth/shared/ports/read-store';

export class ReadModelMemo<T> {
  private readonly kept: WeighedMap<string, { version: number; value: T }>;

  /** At most `max` values, weighing at most `maxWeight` in all as `weigh` measures each (by default, their count alone). */
  constructor(private readonly store: ReadStore, max: number, private readonly weigh: (value: T) => number = () => 1, maxWeight = Infinity) {
    this.kept = new WeighedMap(max, maxWeight);
  }

  /**
   * The value kept under `key`, or the one `work` gives now, kept when the store can tell that it
   * stays true (its version, read before the work: a write meanwhile moves it).
   */
  async get(key: string, work: () => Promise<T>): Promise<T> {
    const version = this.store.version();
    if (version === null) return work();
    const kept = this.kept.get(key);
    if (kept?.version === version) return kept.value;
    const value = await work();
    this.kept.set(key, { version, value }, this.weigh(value));
    return value;
  }
}
