import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { jsonParser, parseJson, stringifyJson } from '@petstore/json';

const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';

describe('parseJson', () => {
  it('keeps integers at the int64 bounds digit for digit', () => {
    assert.deepEqual(parseJson(`{"a":${MAX},"b":${MIN}}`), { a: BigInt(MAX), b: BigInt(MIN) });
  });

  it('leaves fractions and exponents as numbers so validation can reject them', () => {
    const value = parseJson('[1.5, 1e3, 12.0]') as unknown[];
    assert.deepEqual(value, [1.5, 1000, 12]);
    assert.equal(typeof value[2], 'number');
  });

  it('keeps strings that look like numbers as strings', () => {
    assert.deepEqual(parseJson('{"a":"12"}'), { a: '12' });
  });

  it('a runtime whose reviver gets no source text → jsonParser throws, never parses lossily', () => {
    const parse = JSON.parse;
    JSON.parse = (text: string, revive?: (key: string, value: unknown) => unknown) =>
      parse(text, revive && ((key, value) => revive(key, value)));
    try {
      assert.throws(() => jsonParser(), /no source text; use Node\.js 24/);
    } finally {
      JSON.parse = parse;
    }
    assert.equal(typeof jsonParser(), 'function');
  });
});

describe('jsonParser', () => {
  it('nullPrototype → every object has no prototype, and __proto__ or constructor are plain fields', () => {
    const parse = jsonParser({ nullPrototype: true });
    const value = parse(
      '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"a":[{"b":2}]}',
    ) as Record<string, Record<string, unknown>>;
    assert.equal(Object.getPrototypeOf(value), null);
    assert.equal(Object.getPrototypeOf(value.__proto__), null);
    assert.equal(Object.getPrototypeOf((value.a as unknown as object[])[0]), null);
    assert.deepEqual(Object.keys(value), ['__proto__', 'constructor', 'a']);
    assert.equal(value.__proto__!.polluted, 1n);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'x'), false);
  });

  it("integers: 'unsafe' → only integers beyond 2^53 become bigint", () => {
    const parse = jsonParser({ integers: 'unsafe' });
    assert.deepEqual(parse(`[1, ${MAX}, 9007199254740991, 9007199254740992]`), [
      1,
      BigInt(MAX),
      9007199254740991,
      9007199254740992n,
    ]);
  });

  it('keys → only values of those properties become bigint', () => {
    const parse = jsonParser({ keys: ['id', 'categoryId'] });
    assert.deepEqual(parse(`{"id":${MAX},"name":"x","categoryId":${MIN},"status":400}`), {
      id: BigInt(MAX),
      name: 'x',
      categoryId: BigInt(MIN),
      status: 400,
    });
    assert.deepEqual(parse('[{"id":1,"categoryId":2}]'), [{ id: 1n, categoryId: 2n }]);
  });
});

describe('jsonParser without source text (integers of at most 15 digits, no fraction or exponent)', () => {
  const name = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('__proto__', 'constructor', 'a', '0'));
  const { root } = fc.letrec((tie) => ({
    leaf: fc.oneof(
      fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }),
      fc.constant(-0),
      fc.string({ maxLength: 6 }),
      fc.boolean(),
      fc.constant(null),
    ),
    value: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('root')),
    root: fc.oneof(
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(name, tie('value'), { maxKeys: 4 }),
    ),
  }));
  const options = fc.constantFrom<Parameters<typeof jsonParser>[0]>(
    {},
    { nullPrototype: true },
    { integers: 'unsafe' },
    { keys: ['a', '0'] },
    { integers: 'unsafe', nullPrototype: true, keys: ['a'] },
  );

  it('gives what the reviver gives: the same values, bigints and prototypes', () => {
    fc.assert(
      fc.property(root, options, fc.boolean(), (value, parserOptions, spaced) => {
        const text = JSON.stringify(value, null, spaced ? 1 : undefined);
        const parse = jsonParser(parserOptions);
        // A fraction beside it sends the same text through the reviver, which reads source text.
        const [throughReviver] = parse(`[${text}, 1.5]`) as unknown[];
        assert.deepStrictEqual(parse(text), throughReviver);
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps integers of 16 digits and more, and fractions, exact: they take the reviver', () => {
    assert.deepEqual(parseJson('[1234567890123456, 9007199254740993]'), [
      1234567890123456n,
      9007199254740993n,
    ]);
    assert.deepEqual(parseJson('{"a":"x","b":2.0}'), { a: 'x', b: 2 });
  });
});

describe('stringifyJson', () => {
  it('writes bigints digit for digit, so the int64 extremes round-trip', () => {
    const text = stringifyJson({ name: 'x', categoryId: BigInt(MAX), other: BigInt(MIN) });
    assert.equal(text, `{"name":"x","categoryId":${MAX},"other":${MIN}}`);
    assert.deepEqual(parseJson(text), { name: 'x', categoryId: BigInt(MAX), other: BigInt(MIN) });
  });

  it('indents like JSON.stringify and skips undefined properties', () => {
    assert.equal(
      stringifyJson({ a: [1n, {}], b: undefined, c: [] }, 2),
      '{\n  "a": [\n    1,\n    {}\n  ],\n  "c": []\n}',
    );
  });

  it('equals JSON.stringify for any JSON value without bigints, compact and indented', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (value, indent) => {
        assert.equal(stringifyJson(value, indent), JSON.stringify(value, null, indent));
      }),
    );
  });

  it('parse ∘ stringify is the identity on values with bigints anywhere', () => {
    const withBigints = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.string(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value')),
        fc.dictionary(fc.string(), tie('value'), { noNullPrototype: true }),
      ),
    })).value;
    fc.assert(
      fc.property(withBigints, (value) => {
        assert.deepEqual(parseJson(stringifyJson(value)), value);
      }),
    );
  });
});
