import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { binaryString } from './text-arbitraries.ts';
import { makeTestApp, type TestApp, type TestResponse, toJson } from './harness.ts';

const RUNS = { numRuns: 200 };
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const STATUSES = ['available', 'pending', 'sold'];

// ---- oracles: the rules of the contract, written independently of the server's code ----

/** The value a JSON number literal denotes as an int64, or undefined when it is no exact int64. */
function int64Of(text: string): bigint | undefined {
  if (/^-?\d+$/.test(text)) {
    const value = BigInt(text);
    return value >= INT64_MIN && value <= INT64_MAX ? value : undefined;
  }
  const value = Number(text);
  return Number.isSafeInteger(value) ? BigInt(value) : undefined;
}

function isValidName(value: unknown): boolean {
  if (typeof value !== 'string' || !value.isWellFormed()) return false;
  const codePoints = [...value].map((character) => character.codePointAt(0)!);
  const control = codePoints.some((point) => point <= 0x1f || (point >= 0x7f && point <= 0x9f));
  return codePoints.length >= 1 && codePoints.length <= 200 && !/^\s*$/u.test(value) && !control;
}

function isValidField(name: string, value: unknown): boolean {
  if (name === 'name') return isValidName(value);
  if (name === 'status') return STATUSES.includes(value as string);
  if (name === 'categoryId') {
    return (typeof value === 'bigint' || typeof value === 'number') && int64Of(toJson(value)) !== undefined;
  }
  return false;
}

// ---- generators ----

const hostileString = fc.oneof(
  binaryString({ maxLength: 210 }),
  fc.string({
    unit: fc.constantFrom(
      ' ',
      '\t',
      '\n',
      '\u0000',
      '\u001f',
      '\u007f',
      '\u0085',
      '\ud800',
      '\udfff',
      '\u00a0',
      '\u200b',
      '🐈',
      'a',
      'é',
    ),
    maxLength: 205,
  }),
  fc.constantFrom('x'.repeat(200), 'x'.repeat(201), '🐈'.repeat(200), '🐈'.repeat(201), '', ' '),
);
const hostileNumber = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.constantFrom(INT64_MIN, INT64_MAX, INT64_MIN - 1n, INT64_MAX + 1n, 0n, -0, 2 ** 53, 1e21, 1e308),
  fc.double(),
  fc.integer(),
);
/** JSON text written as is (a value too deep to build and stringify in the test). */
class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  [fc.toStringMethod](): string {
    return `RawJson(${this.text.slice(0, 12)}… ${this.text.length} characters)`;
  }
}
const encode = (value: unknown): string => (value instanceof RawJson ? value.text : toJson(value));
const deepNesting = fc
  .tuple(fc.integer({ min: 1, max: 30_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`)
      : new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  );
const anyValue = fc.oneof(
  hostileString,
  hostileNumber,
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(...STATUSES),
  deepNesting,
);
const fieldName = fc.oneof(
  fc.constantFrom('name', 'categoryId', 'status'),
  fc.constantFrom('name', 'categoryId', 'status'),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'id',
    'Name',
    'name ',
    '',
  ),
  fc.string({ maxLength: 12 }),
);
const field = fc.tuple(fieldName, fc.oneof(anyValue, fc.constantFrom('Rex', 7n, 'sold')));
/** Bodies close to a valid NewPet: each field likely valid, sometimes one field too many. */
const nearlyValid = fc
  .tuple(
    fc.record(
      {
        name: fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }), hostileString),
        categoryId: fc.oneof(fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), hostileNumber),
        status: fc.oneof(fc.constantFrom(...STATUSES), anyValue),
      },
      { requiredKeys: ['name'] },
    ),
    fc.option(field, { freq: 4 }),
  )
  .map(([record, extra]): [string, unknown][] => {
    const fields = Object.entries(record);
    return extra && !Object.hasOwn(record, extra[0]) ? [...fields, extra] : fields;
  });
const fieldsText = (fields: [string, unknown][]) =>
  `{${fields.map(([name, value]) => `${JSON.stringify(name)}:${encode(value)}`).join(',')}}`;
/** A body as JSON text with its fields (unique names, so no duplicate keys), or undefined when it is no object. */
const body = fc.oneof(
  nearlyValid.map((fields) => ({ fields, text: fieldsText(fields) })),
  fc
    .uniqueArray(field, { selector: ([name]) => name, maxLength: 5 })
    .map((fields) => ({ fields, text: fieldsText(fields) })),
  anyValue.map((value) => ({ fields: undefined, text: encode(value) })),
);

describe('properties', () => {
  let app: TestApp;
  let key: string;
  before(async () => {
    app = await makeTestApp();
    key = (await app.createKey('enterprise', { perMinute: 1_000_000, perDay: 10_000_000 })).secret;
  });
  after(() => app.close());

  /** Never a 5xx; an error body names its own HTTP status (the harness checks the rest of the contract). */
  function assertSane(response: TestResponse): void {
    assert.ok(response.status < 500, `${response.status}: ${response.body}`);
    if (response.status >= 400) {
      assert.equal((response.json() as { status: bigint }).status, BigInt(response.status));
    }
  }

  it('POST /v1/pets → 201 exactly for valid NewPets (the pet count grows by one), else 400/413 and no pet', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(body, async ({ fields, text }) => {
        const before = await app.storage.pets.count();
        const response = await app.request({ method: 'POST', url: '/v1/pets', key, body: text });
        assertSane(response);
        const count = await app.storage.pets.count();
        const valid =
          fields?.some(([name]) => name === 'name') === true &&
          fields.some(([name]) => name === 'categoryId') &&
          fields.every(([name, value]) => isValidField(name, value));
        const expected = Buffer.byteLength(text) > 64 * 1024 ? 413 : valid ? 201 : 400;
        statuses.add(response.status);
        assert.equal(response.status, expected, `${text.slice(0, 200)} → ${response.body}`);
        assert.equal(count, before + (response.status === 201 ? 1 : 0));
        if (expected === 201) {
          const pet = response.json() as Record<string, unknown>;
          const sent = Object.fromEntries(fields!);
          assert.equal(pet.name, sent.name);
          assert.equal(pet.categoryId, int64Of(toJson(sent.categoryId)));
          assert.equal(pet.status, sent.status);
        }
      }),
      RUNS,
    );
    assert.ok(statuses.has(201) && statuses.has(400), 'the generators reach both outcomes');
  });

  const queryName = fc.oneof(
    fc.constantFrom('limit', 'status', 'cursor'),
    fc.string({ minLength: 1, maxLength: 8 }),
  );
  const queryValue = fc.oneof(
    fc.integer({ min: -5, max: 120 }).map(String),
    fc.constantFrom(...STATUSES, '', '05', '1e1', '1.0', ' 1', 'null', 'undefined', '9'.repeat(30)),
    fc.string({ maxLength: 10 }),
  );
  const query = fc.array(fc.tuple(queryName, queryValue), { maxLength: 4 });

  it('GET /v1/pets → 200 exactly for valid queries (a page that honours limit and status), else 400', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const before = await app.storage.pets.count();
        const text = pairs
          .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
          .join('&');
        const response = await app.request({ url: `/v1/pets?${text}`, key });
        assertSane(response);
        const names = pairs.map(([name]) => name);
        const values = Object.fromEntries(pairs);
        const limitOk = values.limit === undefined || /^(?:[1-9]\d?|100)$/.test(values.limit);
        const valid =
          new Set(names).size === names.length &&
          names.every((name) => name === 'limit' || name === 'status') &&
          limitOk &&
          (values.status === undefined || STATUSES.includes(values.status));
        assert.equal(response.status, valid ? 200 : 400, `?${text} → ${response.body}`);
        if (valid) {
          const pets = response.json() as { status?: string }[];
          assert.ok(pets.length <= Number(values.limit ?? 20));
          if (values.status !== undefined) assert.ok(pets.every((pet) => pet.status === values.status));
        }
        assert.equal(await app.storage.pets.count(), before);
      }),
      RUNS,
    );
  });

  it('GET /v1/pets?<raw query> → never a 5xx, whatever the bytes of the query string', async () => {
    const raw = fc.string({
      unit: fc.constantFrom('a', 'l', '=', '&', '%', '2', 'F', '[', ']', '+', ';', '.', '0', '1', '-', '_'),
      maxLength: 30,
    });
    await fc.assert(
      fc.asyncProperty(raw, async (text) => {
        assertSane(await app.request({ url: `/v1/pets?${text}`, key }));
      }),
      RUNS,
    );
  });

  const petId = fc.oneof(
    fc.bigInt({ min: INT64_MIN, max: INT64_MAX }).map(String),
    fc.bigInt({ min: -5n, max: 40n }).map(String),
    fc.bigInt({ min: INT64_MAX - 2n, max: INT64_MAX + 2n }).map(String),
    fc.stringMatching(/^[-+0 ]?\d{1,25}(\.\d)?$/),
    // "." and ".." are dot-segments: URL resolution removes them before a request is sent.
    fc.string({ minLength: 1, maxLength: 12 }).filter((id) => id !== '.' && id !== '..'),
  );

  it('GET /v1/pets/{petId} → 200 or 404 exactly for canonical int64 ids, else 400 invalid_parameter', async () => {
    for (const categoryId of [1n, 2n, 3n]) await app.storage.pets.create({ name: 'seed', categoryId });
    const existing = await app.storage.pets.list({ limit: 1000 });
    const ids = new Set(existing.map((pet) => pet.id));
    await fc.assert(
      fc.asyncProperty(petId, async (id) => {
        const response = await app.request({ url: `/v1/pets/${encodeURIComponent(id)}`, key });
        assertSane(response);
        const canonical = /^(?:0|-?[1-9]\d*)$/.test(id) && BigInt(id) >= INT64_MIN && BigInt(id) <= INT64_MAX;
        const expected = !canonical ? 400 : ids.has(BigInt(id)) ? 200 : 404;
        assert.equal(response.status, expected, `${id} → ${response.body}`);
        if (expected === 200) assert.equal((response.json() as { id: bigint }).id, BigInt(id));
      }),
      RUNS,
    );
  });
});
