/**
 * Serialised pets by id, packed into one off-heap byte arena: about 70 bytes a pet and nothing for
 * the garbage collector to trace, so a whole catalogue of 100,000 pets fits in 8 MB. Pets never
 * change once created, so an entry never goes stale; a pet that does not exist is never stored.
 *
 * The arena only appends, grows into a new buffer, and when it is full starts over in a new buffer
 * (later reads refill it). Reads decode a fresh string: a string body goes out in the same write as
 * the response head, which measured cheaper than handing Node a slice of the arena.
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
  /** First allocation; the arena doubles from here as needed (default 1 MiB). */
  initialBytes?: number;
}

const LENGTH_PREFIX = 2;
const MAX_ENTRY = 0xffff;
const MAX_HELD_ID = BigInt(Number.MAX_SAFE_INTEGER);

export function createPetArena(options: PetArenaOptions = {}): PetArena {
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const initialBytes = Math.min(options.initialBytes ?? 1024 * 1024, maxBytes);
  let bytes = Buffer.allocUnsafe(initialBytes);
  let used = 0;
  /** Offset of each pet's length prefix, keyed by id as a number (ids above 2^53 are not held). */
  let offsets = new Map<number, number>();

  const startOver = () => {
    bytes = Buffer.allocUnsafe(initialBytes);
    used = 0;
    offsets = new Map();
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
    if (id > MAX_HELD_ID) return false;
    const key = Number(id);
    if (offsets.has(key)) return true;
    const length = Buffer.byteLength(json);
    if (length > MAX_ENTRY || LENGTH_PREFIX + length > maxBytes) return false;
    if (!reserve(LENGTH_PREFIX + length)) {
      if (overflow === 'refuse') return false;
      startOver();
      if (!reserve(LENGTH_PREFIX + length)) return false;
    }
    bytes.writeUInt16LE(length, used);
    bytes.write(json, used + LENGTH_PREFIX, 'utf8');
    offsets.set(key, used);
    used += LENGTH_PREFIX + length;
    return true;
  };

  return {
    get(id) {
      // An id above 2^53 converts to a number above every stored key, so it cannot match one.
      const offset = offsets.get(Number(id));
      if (offset === undefined) return undefined;
      const start = offset + LENGTH_PREFIX;
      return bytes.toString('utf8', start, start + bytes.readUInt16LE(offset));
    },
    tryPut: (id, json) => store(id, json, 'refuse'),
    put(id, json) {
      store(id, json, 'start-over');
    },
    get count() {
      return offsets.size;
    },
  };
}
