/**
 * Serialised read results kept in memory, exactly consistent with what was acknowledged.
 *
 * Pets are immutable once created and ids only grow, so a page that is full and has a next page can
 * never change: it is kept until evicted. The last page of a listing can grow; it is dropped whenever
 * this process commits a create (before the 201 goes out) and whenever the storage's change token says
 * a pet may have been committed elsewhere. (Single pets are kept by pet-arena.ts.)
 * Only a storage whose ids become visible in id order may use page caching (SQLite: one writer at a
 * time; PostgreSQL: inserts serialised by migration 010); others pass `pages: false`.
 */
export interface CachedPage {
  /**
   * The page's JSON as a string: Node writes a string body in one write with the response head, while
   * bytes take a second, gathered write (writev), which measured 12 µs more a listing (docs/benchmarks.md).
   */
  body: string;
  /** Opaque cursor of the next page when more pets match, else undefined. */
  nextCursor: string | undefined;
}

export interface ReadCacheOptions {
  pages: boolean;
  maxPages?: number;
}

/**
 * Changes when a pet may have been committed elsewhere: SQLite's data_version, PostgreSQL's newest pet
 * id. It must be read after the request arrived, so it covers every create acknowledged before.
 */
export type ChangeToken = number | bigint | undefined;

export interface ReadCache {
  /** Call once per read request, with the change token read for it, before consulting the cache. */
  sync(token: ChangeToken): void;
  /** Call after this process committed a write, before acknowledging it. */
  written(): void;
  /** A token to pass back to putPage; a page read before a write must not be stored after it. */
  generation(): number;
  getPage(key: string): CachedPage | undefined;
  putPage(key: string, page: CachedPage, generation: number): void;
}

function boundedSet<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (map.size >= max) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}

export function createReadCache(options: ReadCacheOptions): ReadCache {
  const maxPages = options.maxPages ?? 20_000;
  const stablePages = new Map<string, CachedPage>();
  const lastPages = new Map<string, CachedPage>();
  let token: ChangeToken | null = null;
  let generation = 0;

  const dropGrowingPages = () => {
    generation++;
    lastPages.clear();
  };

  return {
    sync(current) {
      if (current !== token) {
        token = current;
        dropGrowingPages();
      }
    },
    written: dropGrowingPages,
    generation: () => generation,
    getPage(key) {
      if (!options.pages) return undefined;
      return stablePages.get(key) ?? lastPages.get(key);
    },
    putPage(key, page, pageGeneration) {
      if (!options.pages || pageGeneration !== generation) return;
      if (page.nextCursor !== undefined) boundedSet(stablePages, key, page, maxPages);
      else boundedSet(lastPages, key, page, maxPages);
    },
  };
}
