import { setImmediate as nextTurn } from 'node:timers/promises';
import { createIdempotentCreate, type IdempotencyScope } from './idempotent-create.ts';
import type { Store } from '../store.ts';
import type { NewPet, Pet, PetStatus } from '../../storage/records.ts';
import type { Clock } from '../../time/clock.ts';
import { encodeCursor } from './cursor.ts';
import { createPetArena, type PetArenaOptions } from './pet-arena.ts';
import { petJson, petsJson } from './pet-json.ts';
import { type CachedPage, type ChangeToken, createReadCache } from './read-cache.ts';

/** A page as sent: the serialised Pets body and the cursor of the next page when more pets match. */
export type PetPage = CachedPage;

export type CreateOutcome =
  | { kind: 'created'; pet: Pet; body: string }
  /** An Idempotency-Key replay: the pet the key created first. */
  | { kind: 'replayed'; pet: Pet; body: string }
  | { kind: 'in_progress' }
  | { kind: 'key_reused' };

/** What happened, for whoever counts it (metrics). */
export interface PetEvents {
  petCreated(): void;
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

export function createPetService(deps: {
  storage: Store;
  clock: Clock;
  events?: PetEvents;
  idempotencyTtlMs?: number;
  arena?: PetArenaOptions;
}): PetService {
  const { storage } = deps;
  const idempotentCreate = createIdempotentCreate({
    storage,
    clock: deps.clock,
    ttlMs: deps.idempotencyTtlMs,
  });
  // Without a change signal from the database, pages cannot be kept exact across processes.
  const cache = createReadCache({
    pages: storage.petsVersion !== undefined || storage.changeToken() !== undefined,
  });
  const changeToken = (): ChangeToken | Promise<ChangeToken> =>
    storage.petsVersion ? storage.petsVersion() : storage.changeToken();
  const arena = createPetArena(deps.arena);
  // A created pet enters the arena when it is first read, not here: the arena's memory follows what is
  // read, and a burst of creates cannot fill it and start it over under the pets being read.
  const created = (pet: Pet): CreateOutcome => {
    cache.written();
    deps.events?.petCreated();
    return { kind: 'created', pet, body: petJson(pet) };
  };

  return {
    async list({ status, afterId, limit }) {
      const token = changeToken();
      cache.sync(token instanceof Promise ? await token : token);
      const key = `${status ?? ''}|${afterId ?? ''}|${limit}`;
      const cached = cache.getPage(key);
      if (cached) return cached;
      const generation = cache.generation();
      const rows = await storage.pets.list({ status, afterId, limit: limit + 1 });
      const pets = rows.slice(0, limit);
      const last = rows.length > limit ? pets[pets.length - 1] : undefined;
      const page = { body: petsJson(pets), nextCursor: last && encodeCursor(last.id, status) };
      cache.putPage(key, page, generation);
      return page;
    },

    async get(id) {
      const held = arena.get(id);
      if (held !== undefined) return held;
      const pet = await storage.pets.get(id);
      if (!pet) return undefined;
      const json = petJson(pet);
      arena.put(id, json);
      return json;
    },

    async warm(stopped) {
      let afterId = 0n;
      let loaded = 0;
      while (!stopped()) {
        const batch = await storage.pets.list({ afterId, limit: WARM_BATCH });
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
        const result = await storage.pets.create(pet);
        if (result.kind !== 'created') throw new Error('a create without an idempotency key cannot conflict');
        return created(result.pet);
      }
      const outcome = await idempotentCreate(pet, idempotency);
      if (outcome.kind === 'created') return created(outcome.pet);
      if (outcome.kind !== 'replayed') return outcome;
      const replayed = await storage.pets.get(outcome.petId);
      if (!replayed) throw new Error(`idempotency record points at missing pet ${outcome.petId}`);
      return { kind: 'replayed', pet: replayed, body: petJson(replayed) };
    },
  };
}
