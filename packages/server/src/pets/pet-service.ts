import { createHash } from 'node:crypto';
import type { NewPet, Pet, PetStatus, Storage } from '../storage/repository.ts';
import type { Clock } from '../time/clock.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { encodeCursor } from './cursor.ts';
import { createPetArena, type PetArenaOptions } from './pet-arena.ts';
import { petJson, petsJson } from './pet-json.ts';
import { type CachedPage, createReadCache } from './read-cache.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

/** A page as sent: the serialised Pets body and the cursor of the next page when more pets match. */
export type PetPage = CachedPage;

export type CreateOutcome =
  | { kind: 'created'; pet: Pet; body: string }
  | { kind: 'replayed'; statusCode: number; body: string }
  | { kind: 'in_progress' }
  | { kind: 'key_reused' };

export interface IdempotencyScope {
  apiKeyId: string;
  key: string;
}

export interface PetService {
  list(query: { status?: PetStatus; afterId?: bigint; limit: number }): Promise<PetPage>;
  /** The pet's JSON, or undefined when no such pet exists. */
  get(id: bigint): Promise<string | undefined>;
  create(pet: NewPet, idempotency?: IdempotencyScope): Promise<CreateOutcome>;
  /**
   * Reads existing pets into memory in small batches, one per event-loop turn so requests keep
   * being served, until all are held, the in-memory room is used up or `stopped()` says so.
   * Resolves with how many pets were loaded.
   */
  warm(stopped: () => boolean): Promise<number>;
}

/** Pets read per warm-up batch: about a quarter of a millisecond of SQLite work. */
const WARM_BATCH = 256;

/** Same pet data means same request, whatever the JSON formatting or key order. */
function requestHash(pet: NewPet): string {
  return createHash('sha256')
    .update(`${pet.name}\u0000${pet.categoryId}\u0000${pet.status ?? ''}`)
    .digest('hex');
}

export function createPetService(deps: {
  storage: Storage;
  clock: Clock;
  idempotencyTtlMs?: number;
  arena?: PetArenaOptions;
}): PetService {
  const { storage, clock } = deps;
  const ttl = deps.idempotencyTtlMs ?? IDEMPOTENCY_TTL_MS;
  /** Idempotency keys with a create running in this process: a concurrent duplicate gets 409. */
  const inFlight = new Set<string>();
  const cache = createReadCache({
    changeToken: () => storage.changeToken(),
    pages: storage.kind === 'sqlite',
  });
  const arena = createPetArena(deps.arena);
  const created = (pet: Pet): CreateOutcome => {
    cache.written();
    const body = petJson(pet);
    arena.put(pet.id, body);
    return { kind: 'created', pet, body };
  };

  const replayOrRefuse = (
    record: { requestHash: string; statusCode: number; responseBody: string },
    hash: string,
  ) =>
    record.requestHash === hash
      ? ({ kind: 'replayed', statusCode: record.statusCode, body: record.responseBody } as const)
      : ({ kind: 'key_reused' } as const);

  return {
    async list({ status, afterId, limit }) {
      cache.sync();
      const key = `${status ?? ''}|${afterId ?? ''}|${limit}`;
      const cached = cache.getPage(key);
      if (cached) return cached;
      const generation = cache.generation();
      const rows = await storage.listPets({ status, afterId, limit: limit + 1 });
      const pets = rows.slice(0, limit);
      const last = rows.length > limit ? pets[pets.length - 1] : undefined;
      const page = { body: petsJson(pets), nextCursor: last && encodeCursor(last.id, status) };
      cache.putPage(key, page, generation);
      return page;
    },

    async get(id) {
      const held = arena.get(id);
      if (held !== undefined) return held;
      const pet = await storage.getPet(id);
      if (!pet) return undefined;
      const json = petJson(pet);
      arena.put(id, json);
      return json;
    },

    async warm(stopped) {
      let afterId = 0n;
      let loaded = 0;
      while (!stopped()) {
        const batch = await storage.listPets({ afterId, limit: WARM_BATCH });
        for (const pet of batch) {
          if (!arena.tryPut(pet.id, petJson(pet))) return loaded;
          loaded++;
        }
        if (batch.length < WARM_BATCH) break;
        afterId = batch[batch.length - 1]!.id;
        await nextTurn();
      }
      return loaded;
    },

    async create(pet, idempotency) {
      if (!idempotency) {
        const result = await storage.createPet(pet);
        if (result.kind !== 'created') throw new Error('a create without an idempotency key cannot conflict');
        return created(result.pet);
      }
      const hash = requestHash(pet);
      const scope = `${idempotency.apiKeyId}\u0000${idempotency.key}`;
      if (inFlight.has(scope)) return { kind: 'in_progress' };
      inFlight.add(scope);
      try {
        const now = clock.now();
        const existing = await storage.findIdempotency(idempotency.apiKeyId, idempotency.key, now);
        if (existing) return replayOrRefuse(existing, hash);
        const result = await storage.createPet(pet, {
          idempotency: {
            ...idempotency,
            requestHash: hash,
            createdAt: now,
            expiresAt: now + ttl,
            responseBody: petJson,
          },
        });
        if (result.kind === 'idempotency_conflict') return replayOrRefuse(result.existing, hash);
        return created(result.pet);
      } finally {
        inFlight.delete(scope);
      }
    },
  };
}
