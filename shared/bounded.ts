/**
 * Sets `key` as the newest entry of `map` (a Map keeps insertion order), dropping the oldest entry
 * when the map already holds `max`: the bounded caches' one eviction rule.
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}
