import type { NewPet, Pet } from '../../storage/records.ts';

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
    // Callers by content, each list answered from its start (a batch often holds many equal pets).
    const waiting = new Map<string, { items: Waiting[]; next: number }>();
    for (const item of batch) {
      const key = contentOf(item.pet);
      const same = waiting.get(key);
      if (same) same.items.push(item);
      else waiting.set(key, { items: [item], next: 0 });
    }
    for (const pet of stored) {
      const same = waiting.get(contentOf(pet));
      if (same && same.next < same.items.length) same.items[same.next++]!.resolve(pet);
    }
    for (const { items, next } of waiting.values()) {
      for (const item of items.slice(next)) {
        item.reject(new Error('a batch insert returned rows that do not match its pets'));
      }
    }
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
