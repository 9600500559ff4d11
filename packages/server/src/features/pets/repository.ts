import type { CreateOptions, CreateResult, ListQuery, NewPet, Pet } from '../../storage/records.ts';

/** The pets' storage: sqlite.ts and postgres.ts beside it, reached as `storage.pets`. */
export interface PetRepository {
  /** Resolves only after the pet (and its idempotency record) is durably committed. */
  create(pet: NewPet, options?: CreateOptions): Promise<CreateResult>;
  get(id: bigint): Promise<Pet | undefined>;
  /** Pets in ascending id order, at most `limit` of them. */
  list(query: ListQuery): Promise<Pet[]>;
  count(): Promise<number>;
}
