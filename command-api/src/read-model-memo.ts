// Values worked out from the read models, kept while the read store's version stays the same:
// any committed write moves it, so a kept value is never older than the models it came from.
import { setNewest } from '@berth/shared/bounded';
import type { ReadStore } from '@berth/shared/ports/read-store';

export class ReadModelMemo<T> {
  private readonly kept = new Map<string, { version: number; value: T }>();

  constructor(private readonly store: ReadStore, private readonly max: number) {}

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
    setNewest(this.kept, key, { version, value }, this.max);
    return value;
  }
}
