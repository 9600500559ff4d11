import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createPetArena } from './pet-arena.ts';
import { petJson } from './pet-json.ts';
import { createPetService } from './service.ts';
import type { Store } from '../store.ts';
import { systemClock } from '../../time/clock.ts';
import { openStoreAt } from '../store.ts';

describe('createPetArena', () => {
  it('get → exactly the JSON that was put, multi-byte characters included', () => {
    const arena = createPetArena();
    const json = '{"id":7,"name":"Zoë 🐕 \\"q\\"","categoryId":9223372036854775807}';
    arena.put(7n, json);
    assert.equal(arena.get(7n), json);
    assert.equal(arena.get(8n), undefined);
  });

  it('ids above 2^53 are not held, so they cannot collide with a rounded neighbour', () => {
    const arena = createPetArena();
    arena.put(2n ** 53n, 'a');
    arena.put(2n ** 53n + 1n, 'b');
    assert.equal(arena.get(2n ** 53n + 1n), undefined);
    assert.equal(arena.get(2n ** 53n), undefined);
    arena.put(2n ** 53n - 1n, 'c');
    assert.equal(arena.get(2n ** 53n - 1n), 'c');
  });

  it('growing keeps every entry', () => {
    const arena = createPetArena({ initialBytes: 16, maxBytes: 4096 });
    arena.put(1n, 'first pet');
    for (let id = 2n; id < 100n; id++) arena.put(id, `pet number ${id}`);
    assert.equal(arena.get(1n), 'first pet');
    assert.equal(arena.get(99n), 'pet number 99');
  });

  it('full: tryPut refuses and stores nothing; put starts over', () => {
    const arena = createPetArena({ initialBytes: 32, maxBytes: 32 });
    assert.equal(arena.tryPut(1n, 'x'.repeat(20)), true);
    assert.equal(arena.tryPut(2n, 'y'.repeat(20)), false);
    assert.equal(arena.get(2n), undefined);
    arena.put(2n, 'y'.repeat(20));
    assert.equal(arena.get(2n), 'y'.repeat(20));
    assert.equal(arena.get(1n), undefined);
    assert.equal(arena.count, 1);
  });

  it('sparse ids: index pages are bounded (a quarter of the arena, at least 4), then it is full', () => {
    const arena = createPetArena({ initialBytes: 64, maxBytes: 4096 });
    for (const id of [0n, 256n, 512n, 768n]) assert.equal(arena.tryPut(id, `pet ${id}`), true);
    assert.equal(arena.tryPut(255n, 'same page as 0'), true);
    assert.equal(arena.tryPut(1024n, 'a fifth page'), false);
    assert.equal(arena.get(1024n), undefined);
    assert.equal(arena.count, 5);
    arena.put(1024n, 'a fifth page');
    assert.equal(arena.get(1024n), 'a fifth page');
    assert.equal(arena.get(0n), undefined);
    assert.equal(arena.count, 1);
  });

  it('an entry longer than 65,535 bytes is not held (the length prefix has two bytes)', () => {
    const arena = createPetArena();
    arena.put(1n, 'z'.repeat(70_000));
    assert.equal(arena.get(1n), undefined);
  });

  it('property: whatever is put, get answers undefined or exactly that pet', () => {
    const pet = fc.record({
      id: fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }),
      name: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
      categoryId: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    });
    fc.assert(
      // Pets never change, so an id always comes with the same JSON; puts repeat some of them.
      fc.property(
        fc.uniqueArray(pet, { selector: (p) => p.id, maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 60 }),
        fc.integer({ min: 8, max: 2048 }),
        (pets, repeats, maxBytes) => {
          const arena = createPetArena({ initialBytes: 8, maxBytes });
          const puts = [...pets, ...repeats.flatMap((i) => (pets.length ? [pets[i % pets.length]!] : []))];
          for (const p of puts) arena.put(p.id, petJson(p));
          for (const p of pets) {
            const held = arena.get(p.id);
            assert.ok(held === undefined || held === petJson(p), `pet ${p.id}: ${held} !== ${petJson(p)}`);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('PetService.warm: existing pets are read into memory and answered from it', () => {
  let dir: string;
  let storage: Store;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-arena-'));
    storage = await openStoreAt(join(dir, 'petstore.db'));
    await storage.migrate();
    for (let i = 0; i < 600; i++) {
      await storage.pets.create({
        name: `pet ${i} ✓`,
        categoryId: BigInt(i),
        status: i % 2 ? 'sold' : undefined,
      });
    }
  });

  after(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  const storedJson = async (id: bigint) => {
    const pet = await storage.pets.get(id);
    return pet && petJson(pet);
  };

  it('loads every pet in batches, and each answer equals the stored pet', async () => {
    const pets = createPetService({ storage, clock: systemClock });
    assert.equal(await pets.warm(() => false), 600);
    for (const id of [1n, 256n, 257n, 600n]) assert.equal(await pets.get(id), await storedJson(id));
    assert.equal(await pets.get(601n), undefined);
  });

  it('stops when told to, and when the memory room is used up; misses still come from storage', async () => {
    let batches = 0;
    const stopped = createPetService({ storage, clock: systemClock });
    assert.equal(await stopped.warm(() => batches++ > 0), 256);

    const small = createPetService({ storage, clock: systemClock, arena: { maxBytes: 4096 } });
    const loaded = await small.warm(() => false);
    assert.ok(loaded > 0 && loaded < 600, `loaded ${loaded}`);
    assert.equal(await small.get(600n), await storedJson(600n));
  });

  it('a pet created after warming is answered at once (it goes into memory with its 201)', async () => {
    const pets = createPetService({ storage, clock: systemClock });
    await pets.warm(() => false);
    const outcome = await pets.create({ name: 'newcomer', categoryId: 3n });
    assert.equal(outcome.kind, 'created');
    if (outcome.kind !== 'created') return;
    assert.equal(await pets.get(outcome.pet.id), outcome.body);
    assert.equal(outcome.body, await storedJson(outcome.pet.id));
  });
});
