/**
 * A memo table for caches keyed by what callers send (question words, word pairs, operation
 * shapes): a long-running server must not grow one without bound. When the map holds `max`
 * entries it is emptied before the next one is added. Cheaper than an LRU, and enough where a
 * recomputed entry costs about what it did the first time.
 */
export function memoInto<K, V>(map: Map<K, V>, key: K, max: number, compute: () => V): V {
  const hit = map.get(key);
  if (hit !== undefined || map.has(key)) return hit as V;
  const value = compute();
  if (map.size >= max) map.clear();
  map.set(key, value);
  return value;
}
