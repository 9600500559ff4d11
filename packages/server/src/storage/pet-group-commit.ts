import type { NewPet, Pet } from './records.ts';

export interface PetBatchWriter {
  /** Inserts the pets with one statement in one transaction; resolves, once committed, with them in any order. */
  insertMany(pets: NewPet[]): Promise<Pet[]>;
  /** Inserts one pet on its own. */
  insertOne(pet: NewPet): Promise<Pet>;
  /** The database cannot answer: trying the pets of a failed batch one by one would fail too. */
  isUnavailable(error: unknown): boolean;
}

interface Waiting {
  pet: NewPet;
  resolve: (pet: Pet) => void;
  reject: (error: unknown) => void;
}

const contentOf = (pet: NewPet) => JSON.stringify([pet.name, `${pet.categoryId}`, pet.status ?? null]);

/**
 * Creates that arrive while a batch is being written, or in the same event-loop turn, share the next
 * batch: one statement, one round trip and one commit (one WAL flush) for all of them. Each promise
 * settles only after its batch committed. A batch that fails for another reason than an outage is
 * retried pet by pet, so one bad pet fails alone. Pets are matched to their callers by content: pets
 * that are equal but for the id are interchangeable.
 */
export function createPetGroupCommit(writer: PetBatchWriter, maxBatch = 500): (pet: NewPet) => Promise<Pet> {
  let queue: Waiting[] = [];
  let writing = false;

  const settle = (batch: Waiting[], stored: Pet[]) => {
    const waiting = new Map<string, Waiting[]>();
    for (const item of batch) {
      const key = contentOf(item.pet);
      waiting.set(key, [...(waiting.get(key) ?? []), item]);
    }
    for (const pet of stored) waiting.get(contentOf(pet))?.shift()?.resolve(pet);
    const unmatched = [...waiting.values()].flat();
    for (const item of unmatched)
      item.reject(new Error('a batch insert returned rows that do not match its pets'));
  };

  const write = async (batch: Waiting[]) => {
    try {
      settle(batch, await writer.insertMany(batch.map((item) => item.pet)));
    } catch (error) {
      if (batch.length === 1 || writer.isUnavailable(error)) {
        for (const item of batch) item.reject(error);
        return;
      }
      // In arrival order, so earlier requests still get lower ids.
      for (const item of batch) await writer.insertOne(item.pet).then(item.resolve, item.reject);
    }
  };

  const drain = async () => {
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(batch.length);
        await write(batch);
      }
    } finally {
      writing = false;
    }
  };

  return (pet) =>
    new Promise<Pet>((resolve, reject) => {
      queue.push({ pet, resolve, reject });
      if (!writing) {
        writing = true;
        setImmediate(drain);
      }
    });
}
