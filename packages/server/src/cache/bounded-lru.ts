import { LRUCache } from 'lru-cache';

/** What lru-cache requires of keys and values: anything but null and undefined. */
type Present = NonNullable<unknown>;

type Options<K extends Present, V extends Present> = Omit<
  LRUCache.Options<K, V, unknown>,
  'max' | 'maxSize' | 'sizeCalculation'
>;

/**
 * An LRU of at most `entries` entries that evicts the least recently used one when full, never all.
 * lru-cache allocates its arrays for `max` entries when it is built (about 10 ms for 100,000, paid at
 * every start-up by every cache); bounded by `maxSize` with each entry counting one, its arrays grow
 * with what is cached instead, for the same bound.
 */
export function boundedLru<K extends Present, V extends Present>(
  entries: number,
  options: Options<K, V> = {},
) {
  return new LRUCache<K, V>({ ...options, maxSize: entries, sizeCalculation: () => 1 });
}
