/**
 * Serialised pets by id, packed into one off-heap byte arena with an off-heap index: about 74 bytes a
 * pet and nothing for the garbage collector to trace, so a whole catalogue of 100,000 pets fits in
 * 8 MB. Pets never change once created, so an entry never goes stale; a pet that does not exist is
 * never stored.
 *
 * The arena only appends, and when it is full starts over in a new buffer (later reads refill it).
 * Reads decode a fresh string: a string body goes out in the same write as the response head, which
 * measured cheaper than handing Node a slice of the arena.
 */
export interface PetArena {
  /** The pet's JSON, or undefined when it is not held. */
  get(id: bigint): string | undefined;
  /** Stores the pet's JSON; returns false (storing nothing) when that would mean starting over. */
  tryPut(id: bigint, json: string): boolean;
  /** Stores the pet's JSON, starting over when the arena is full. */
  put(id: bigint, json: string): void;
  readonly count: number;
}

export interface PetArenaOptions {
  /** Largest arena (default 32 MiB, about 450,000 pets). */
  maxBytes?: number;
  /**
   * First allocation; the arena doubles from here as needed. By default the whole arena at once: the
   * memory is reserved, not used, until pets are written into it (the kernel maps pages on first
   * touch), and it never holds a grown copy beside the old buffer until the collector frees it.
   */
  initialBytes?: number;
}

const LENGTH_PREFIX = 2;
const MAX_ENTRY = 0xffff;
const MAX_HELD_ID = BigInt(Number.MAX_SAFE_INTEGER);
/** Ids per index page: each page is a Uint32Array of 1 KiB, off the heap like the arena. */
const PAGE_IDS = 256;
const PAGE_BYTES = PAGE_IDS * Uint32Array.BYTES_PER_ELEMENT;
/** Offsets are stored plus one in a Uint32Array, 0 meaning "not held". */
const MAX_ARENA_BYTES = 0xffff_fffe;

/**
 * Where each pet starts is kept in pages of consecutive ids (ids are allocated in order, so 100,000
 * pets need about 400 pages, 0.4 MB): a Map of one entry per pet took 29 bytes a pet on the heap, and
 * doubling it near the cap held the old and new tables together at the peak. Index pages are bounded
 * by a quarter of the arena (at least 4), so sparse ids cannot make the index outgrow it.
 */
export function createPetArena(options: PetArenaOptions = {}): PetArena {
  const maxBytes = Math.min(options.maxBytes ?? 32 * 1024 * 1024, MAX_ARENA_BYTES);
  const initialBytes = Math.min(options.initialBytes ?? maxBytes, maxBytes);
  const maxPages = Math.max(4, Math.floor(maxBytes / 4 / PAGE_BYTES));
  let bytes = Buffer.allocUnsafe(initialBytes);
  let used = 0;
  /** Index pages by id / PAGE_IDS (ids above 2^53 are not held). */
  let pages = new Map<number, Uint32Array>();
  let count = 0;

  const startOver = () => {
    bytes = Buffer.allocUnsafe(initialBytes);
    used = 0;
    pages = new Map();
    count = 0;
  };

  /** Makes room for `size` more bytes if the arena may grow that far; false when it is full. */
  const reserve = (size: number): boolean => {
    if (used + size <= bytes.length) return true;
    if (used + size > maxBytes) return false;
    let length = bytes.length;
    while (length < used + size) length *= 2;
    const grown = Buffer.allocUnsafe(Math.min(length, maxBytes));
    bytes.copy(grown, 0, 0, used);
    bytes = grown;
    return true;
  };

  const store = (id: bigint, json: string, overflow: 'refuse' | 'start-over'): boolean => {
    if (id > MAX_HELD_ID || id < 0n) return false;
    const key = Number(id);
    const pageNumber = Math.floor(key / PAGE_IDS);
    const slot = key % PAGE_IDS;
    let page = pages.get(pageNumber);
    if (page !== undefined && page[slot] !== 0) return true;
    const length = Buffer.byteLength(json);
    if (length > MAX_ENTRY || LENGTH_PREFIX + length > maxBytes) return false;
    if (!reserve(LENGTH_PREFIX + length) || (page === undefined && pages.size >= maxPages)) {
      if (overflow === 'refuse') return false;
      startOver();
      page = undefined;
      if (!reserve(LENGTH_PREFIX + length)) return false;
    }
    if (page === undefined) {
      page = new Uint32Array(PAGE_IDS);
      pages.set(pageNumber, page);
    }
    bytes.writeUInt16LE(length, used);
    bytes.write(json, used + LENGTH_PREFIX, 'utf8');
    page[slot] = used + 1;
    used += LENGTH_PREFIX + length;
    count++;
    return true;
  };

  return {
    get(id) {
      // An id above 2^53 would round onto a neighbour's slot: such ids are never held.
      if (id > MAX_HELD_ID || id < 0n) return undefined;
      const key = Number(id);
      const stored = pages.get(Math.floor(key / PAGE_IDS))?.[key % PAGE_IDS];
      if (!stored) return undefined;
      const offset = stored - 1;
      const start = offset + LENGTH_PREFIX;
      return bytes.toString('utf8', start, start + bytes.readUInt16LE(offset));
    },
    tryPut: (id, json) => store(id, json, 'refuse'),
    put(id, json) {
      store(id, json, 'start-over');
    },
    get count() {
      return count;
    },
  };
}
