/**
 * Sets `key` as the newest entry of `map` (a Map keeps insertion order), dropping the oldest entry
 * when the map already holds `max`: the bounded caches' one eviction rule.
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) dropOldest(map);
  map.set(key, value);
}

/**
 * Where each map's oldest entry is. A fresh iterator starts at the front of the map's table and
 * steps over every entry deleted since V8 last compacted it (thousands, in a cache that drops its
 * oldest on each insertion: microseconds per insertion); one kept per map resumes where it stopped.
 */
const fronts = new WeakMap<Map<unknown, unknown>, Iterator<[unknown, unknown]>>();

/** Removes the oldest entry of `map` and returns it; undefined when the map is empty. */
export function dropOldest<K, V>(map: Map<K, V>): [K, V] | undefined {
  // Every entry this iterator returned was removed, so it always stands at the oldest one left.
  let front = fronts.get(map) as Iterator<[K, V]> | undefined;
  let next = front?.next();
  if (!next || next.done) {
    front = map.entries();
    fronts.set(map, front);
    next = front.next();
  }
  if (next.done) return undefined;
  map.delete(next.value[0]);
  return next.value;
}
