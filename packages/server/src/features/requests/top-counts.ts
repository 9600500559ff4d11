/**
 * Counts by name in bounded memory, for the names counted most (the space-saving algorithm): at most
 * `capacity` names are held; a new name arriving when all are taken replaces the one counted least and
 * starts from its count (so a count may be over by at most that much, never under, for a name held).
 * Any name counted more than total / capacity is always held. Used for the request log's drops per
 * project: a million projects never make a million counters or a million metric labels.
 */
export interface TopCounts {
  add(name: string, by?: number): void;
  /** The `limit` names counted most, most first. */
  top(limit: number): { name: string; count: number }[];
  /** Everything counted, held or not. */
  readonly total: number;
  clear(): void;
}

export function createTopCounts(capacity: number): TopCounts {
  const counts = new Map<string, number>();
  let total = 0;
  return {
    add(name, by = 1) {
      total += by;
      const held = counts.get(name);
      if (held !== undefined || counts.size < capacity) {
        counts.set(name, (held ?? 0) + by);
        return;
      }
      let least: string | undefined;
      let leastCount = Infinity;
      for (const [other, count] of counts) {
        if (count < leastCount) [least, leastCount] = [other, count];
      }
      counts.delete(least!);
      counts.set(name, leastCount + by);
    },
    top(limit) {
      return [...counts]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, limit)
        .map(([name, count]) => ({ name, count }));
    },
    get total() {
      return total;
    },
    clear() {
      counts.clear();
      total = 0;
    },
  };
}
