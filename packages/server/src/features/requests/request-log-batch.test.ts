import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { binaryString } from '../../../test/text-arbitraries.ts';
import { createRequestIds } from '../../http/request-ids.ts';
import type { LoggedRequest } from './request-log-records.ts';
import {
  type BatchSlot,
  batchesOf,
  combinationPattern,
  decodeSlots,
  encodeSlots,
  uuidV7Ms,
  uuidV7PrefixRange,
} from './request-log-batch.ts';

describe('request log batch summaries', () => {
  it('uuidV7Ms → the time in every id the service makes, whatever the time; nothing for other ids', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 2 }), (ms) => {
        const id = createRequestIds(() => ms).next();
        assert.equal(uuidV7Ms(id), ms);
        assert.equal(uuidV7Ms(id.toUpperCase()), ms);
      }),
    );
    for (const other of ['req-1', '', 'x'.repeat(36), '019ab697-e87b-4000-93f3-cdc1ba6e3f2d'])
      assert.equal(uuidV7Ms(other), undefined, other);
  });

  it('uuidV7Ms → for any id of the shape, the time the first version read (parseInt of its digits): stored ranges stay found', () => {
    const firstVersion = (id: string) => {
      const ms = Number.parseInt(id.slice(0, 8), 16) * 0x10000 + Number.parseInt(id.slice(9, 13), 16);
      return Number.isFinite(ms) ? ms : undefined;
    };
    const char = fc.constantFrom(...'0123456789abcdefABCDEFgxX +-. \t'.split(''));
    const digits = (length: number) =>
      fc.array(char, { minLength: length, maxLength: length }).map((c) => c.join(''));
    fc.assert(
      fc.property(digits(8), digits(4), digits(3), (first, second, rest) => {
        const id = `${first}-${second}-7${rest}-8000-000000000000`;
        assert.equal(uuidV7Ms(id), firstVersion(id), id);
      }),
      { numRuns: 2_000 },
    );
  });

  it('uuidV7PrefixRange → the times of the ids starting so: every id the service makes is in its prefixes’ ranges', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 2 }), fc.integer({ min: 8, max: 36 }), (ms, length) => {
        const id = createRequestIds(() => ms).next();
        const [low, high] = uuidV7PrefixRange(id.slice(0, length))!;
        assert.ok(low <= ms && ms <= high, `${id.slice(0, length)}: ${low}..${high}`);
      }),
    );
    assert.deepEqual(uuidV7PrefixRange('019ab697'), [0x019ab6970000, 0x019ab697ffff]);
    assert.deepEqual(uuidV7PrefixRange('019ab697-e8'), [0x019ab697e800, 0x019ab697e8ff]);
    for (const other of ['019ab69', '019AB697', '019ab697e', '019ab697-e87b-4', 'req-1-abcd', 'x'.repeat(37)])
      assert.equal(uuidV7PrefixRange(other), undefined, other);
  });

  it('batchesOf → a batch’s retention from its requests’ plans, the longest; none when one came without its plan', () => {
    const row = (projectId: string, plan?: LoggedRequest['plan']): LoggedRequest => ({
      ...{ projectId, at: 0, requestId: 'r', keyId: 'k', keyLabel: null, operation: 'getPet' },
      ...{ method: 'GET', path: '/', status: 200, code: null, latencyMs: 1, address: '::1' },
      ...(plan && { plan }),
    });
    const batches = batchesOf([
      row('free', 'free'),
      row('changed', 'pro'),
      row('changed', 'business'),
      row('changed', 'free'),
      row('unknown', 'pro'),
      row('unknown'),
    ]);
    assert.deepEqual(
      batches.map((batch) => [batch.projectId, batch.retentionDays]),
      [
        ['free', 1],
        ['changed', 30],
        ['unknown', null],
      ],
    );
  });

  it('decodeSlots → a compact batch stored before messages were kept reads with a null message', () => {
    const stored = JSON.stringify({
      v: 2,
      base: 1000,
      strings: ['key_a', 'getPet', 'GET', '127.0.0.1'],
      rows: [[5, 'req-1', 0, null, 1, 2, '/v1/pets/1', 200, null, 42, 3]],
    });
    assert.deepEqual(decodeSlots(stored), [
      [1005, 'req-1', 'key_a', null, 'getPet', 'GET', '/v1/pets/1', 200, null, 0.42, '127.0.0.1', null],
    ]);
  });

  it('combinationPattern → key, operation and status together, LIKE characters of a name taken literally', () => {
    assert.equal(combinationPattern({ projectId: 'p', limit: 1 }), undefined);
    assert.equal(
      combinationPattern({ projectId: 'p', keyId: 'key_1', status: '5xx', limit: 1 }),
      '%|key\\_1|%|5__|%',
    );
    assert.equal(
      combinationPattern({ projectId: 'p', operation: 'a%b\\c', status: 404, limit: 1 }),
      '%|%|a\\%b\\\\c|404|%',
    );
    assert.equal(combinationPattern({ projectId: 'p', status: '429', limit: 1 }), '%|%|%|429|%');
  });
  const slot: fc.Arbitrary<BatchSlot> = fc.option(
    fc
      .tuple(
        fc.oneof(
          fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
          fc.maxSafeInteger(),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
        ),
        fc.oneof(fc.uuid(), binaryString()),
        fc.constantFrom('key_a', 'key_b', 'key_"\\'),
        fc.option(binaryString({ maxLength: 8 })),
        fc.constantFrom('getPet', 'listPets', 'createPet'),
        fc.constantFrom('GET', 'POST'),
        binaryString(),
        fc.integer({ min: 100, max: 599 }),
        fc.option(fc.constantFrom('not_found', 'rate_limited', '\u0000')),
        fc.oneof(
          fc.integer({ min: 0, max: 600_000 }).map((hundredths) => hundredths / 100),
          fc.double({ min: 0, max: 1e6, noNaN: true }),
        ),
        fc.constantFrom('127.0.0.1', '::1', '203.0.113.7'),
        fc.option(binaryString({ maxLength: 20 })),
      )
      .map((fields) => fields as unknown as NonNullable<BatchSlot>),
    { freq: 8 },
  );

  it('encodeSlots → a compact batch that reads back as the array form did, whatever the fields', () => {
    fc.assert(
      fc.property(fc.array(slot, { maxLength: 40 }), (slots) => {
        const asArrays = JSON.parse(JSON.stringify(slots)) as BatchSlot[];
        const { rows } = encodeSlots(slots);
        assert.ok(rows.startsWith('{"v":2,'), rows);
        assert.deepStrictEqual(decodeSlots(rows), asArrays);
        // Batches stored before migration 057 still read.
        assert.deepStrictEqual(decodeSlots(JSON.stringify(slots)), asArrays);
      }),
      { numRuns: 500 },
    );
  });

  it('encodeSlots → repeated fields once per batch: about 40 % fewer bytes than the array form', () => {
    const slots = Array.from({ length: 250 }, (_, n): BatchSlot => [
      1_764_150_000_000 + n * 3,
      createRequestIds(() => 1_764_150_000_000 + n * 3).next(),
      'key_3f9a1c2b7d',
      'Storefront',
      'getPet',
      'GET',
      `/v1/pets/${n}`,
      200,
      null,
      0.42,
      '127.0.0.1',
      null,
    ]);
    const compact = encodeSlots(slots).rows.length;
    const arrays = JSON.stringify(slots).length;
    assert.ok(compact < arrays * 0.65, `${compact} bytes against ${arrays}`);
  });
});
