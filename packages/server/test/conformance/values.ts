import fc from 'fast-check';
import { binaryString } from '../text-arbitraries.ts';
import { integerBounds, type Schema, satisfies, typesOf } from './schema-oracle.ts';

/**
 * Values for a schema of the contracts, drawn from the schema itself: valid ones (bounds included)
 * and the odd ones a conformance fuzzer sends (wrong types, null, out of range, control characters,
 * odd Unicode, huge). Which is which is left to the oracle (schema-oracle.ts), never assumed here.
 */

/** Text that hides, breaks or confuses: controls, direction and zero-width marks, a lone surrogate. */
export const ODD_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0003b',
  'line\r\nbreak',
  '\t',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u200b',
  '\u202eevil',
  '\u2028',
  '\ufeff',
  '\ud800',
  'é',
  'e\u0301',
  '🐈',
  'Ａ',
  '𝒜',
  '__proto__',
  'constructor',
  "'; DROP TABLE api_keys; --",
  '../..',
  '%00',
];

const hugeText = fc.constantFrom(10_000, 70_000).map((length) => 'x'.repeat(length));

/** Any text, ASCII to astral, with the odd texts mixed in. */
export const anyText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_TEXT) },
  { weight: 1, arbitrary: binaryString({ maxLength: 8 }) },
);

/**
 * Arbitraries of the patterns met so far, by pattern and length: fc.stringMatching takes tens of ms to
 * build one (it splits fast-check's odd strings against each character class), and the same patterns
 * (slugs, ids) come back for every operation. An arbitrary holds no state: one serves every draw.
 */
const patternArbitraries = new Map<string, fc.Arbitrary<string> | undefined>();

function fromPattern(schema: Schema): fc.Arbitrary<string> | undefined {
  if (schema.pattern === undefined) return undefined;
  const max = schema.maxLength ?? 40;
  const key = `${max} ${schema.pattern}`;
  if (!patternArbitraries.has(key)) patternArbitraries.set(key, patternArbitrary(schema.pattern, max));
  return patternArbitraries.get(key);
}

function patternArbitrary(pattern: string, max: number): fc.Arbitrary<string> | undefined {
  try {
    return fc.stringMatching(new RegExp(pattern, 'u'), { size: 'small' }).map((text) => text.slice(0, max));
  } catch {
    return undefined;
  }
}

const instants = fc.date({
  min: new Date('2020-01-01T00:00:00Z'),
  max: new Date('2040-01-01T00:00:00Z'),
  noInvalidDate: true,
});

/** RFC 3339 date-times as clients write them: `Z` or an offset, with or without a fraction, any case. */
const dateTimes = fc
  .tuple(instants, fc.constantFrom('Z', 'z', '+00:00', '+05:30', '-08:00'), fc.boolean())
  .map(([date, zone, fraction]) => {
    const text = date.toISOString().replace('Z', zone);
    const plain = fraction ? text : text.replace(/\.\d{3}/, '');
    return zone === 'z' ? plain.replace('T', 't') : plain;
  });

/** Values the schema accepts (the oracle filters what drawing from the pattern could not hold). */
export function validValue(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  // The document's own example first, as Schemathesis's examples phase sends it.
  if (schema.example !== undefined) return fc.oneof(fc.constant(schema.example), drawnValue(schema));
  return drawnValue(schema);
}

function drawnValue(schema: Schema): fc.Arbitrary<unknown> {
  const type = typesOf(schema)?.find((name) => name !== 'null');
  switch (type) {
    case 'integer': {
      const [min, max] = integerBounds(schema);
      return fc
        .oneof(fc.constantFrom(min, max), fc.bigInt({ min, max }))
        .map((value) => (value >= -(2n ** 53n) && value <= 2n ** 53n ? Number(value) : value));
    }
    case 'object':
      return objectValue(schema, validValue);
    case 'string': {
      const drawn =
        schema.format === 'date-time'
          ? dateTimes
          : (fromPattern(schema) ??
            fc.string({
              unit: 'grapheme',
              minLength: schema.minLength ?? 0,
              maxLength: Math.min(schema.maxLength ?? 20, 20),
            }));
      return drawn.filter((value) => satisfies(schema, value));
    }
    default:
      return fc.constantFrom(null, true, 'x', 1);
  }
}

/** Values near and far from the schema: most break it, the oracle says which. */
export function oddValue(schema: Schema): fc.Arbitrary<unknown> {
  const anyType = fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e21, [], {}, '1', 'null');
  const types = typesOf(schema) ?? [];
  const arbitraries: fc.Arbitrary<unknown>[] = [anyType];
  if (types.includes('integer')) {
    const [min, max] = integerBounds(schema);
    arbitraries.push(fc.constantFrom(min - 1n, max + 1n, 2n ** 63n, -(2n ** 63n) - 1n, 2n ** 64n, -0.5));
  }
  if (types.includes('string')) {
    arbitraries.push(anyText, hugeText);
    const near = validValue(schema).filter((value): value is string => typeof value === 'string');
    arbitraries.push(
      near.map((text) => `${text}${text}${'x'.repeat(schema.maxLength ?? 0)}`),
      near.map((text) => text.slice(1)),
      fc.tuple(near, fc.constantFrom(...ODD_TEXT)).map(([text, odd]) => `${text}${odd}`),
      fc.constantFrom(
        '2026',
        '2026-11-22',
        '2026-11-22 12:00:00Z',
        'Nov 22 2026',
        '2026-02-30T00:00:00Z',
        '2026-11-22T12:00:00',
      ),
    );
    if (schema.enum)
      arbitraries.push(fc.constantFrom(...schema.enum.map((value) => String(value).toUpperCase())));
  }
  if (types.includes('object'))
    arbitraries.push(objectValue(schema, (property) => fc.oneof(validValue(property), oddValue(property))));
  return fc.oneof(...arbitraries);
}

/** A value for a schema: mostly valid, else odd. */
export const valueFor = (schema: Schema): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 3, arbitrary: validValue(schema) }, { weight: 2, arbitrary: oddValue(schema) });

/** Field names no schema declares, including those that reach prototypes in careless code. */
const unknownName = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'id', 'Label', 'label ', ''),
  anyText,
);

/**
 * An object for an object schema: each property present or not (required ones mostly present), with a
 * value from `valueOf`, and now and then a field the schema does not name. Without a prototype, so that
 * `__proto__` is a field like any other.
 */
function objectValue(
  schema: Schema,
  valueOf: (schema: Schema) => fc.Arbitrary<unknown>,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  return fc
    .tuple(
      fc.tuple(
        ...properties.map(([name, property]) =>
          fc.option(valueOf(property), { freq: required.has(name) ? 12 : 2, nil: undefined }),
        ),
      ),
      fc.oneof(
        { weight: 5, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(fc.tuple(unknownName, anyText), { maxLength: 2 }) },
      ),
    )
    .map(([values, extras]) => {
      const object: Record<string, unknown> = Object.create(null);
      properties.forEach(([name], index) => {
        if (values[index] !== undefined) object[name] = values[index];
      });
      for (const [name, value] of extras)
        if (!Object.hasOwn(schema.properties ?? {}, name)) object[name] = value;
      return object;
    });
}
