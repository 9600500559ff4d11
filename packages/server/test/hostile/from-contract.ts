import fc from 'fast-check';
import { publicContract } from '../../src/openapi/contract.ts';

/**
 * Generators and oracles read from the contract's own schemas, not from the server's validation code:
 * the subset the request schemas use (string length, pattern and enum; integer bounds and int64;
 * objects with required fields and no others).
 */
export interface SchemaNode {
  type?: string;
  format?: string;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  required?: string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean;
}

export interface Parameter {
  name: string;
  in: string;
  schema: SchemaNode;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export const schemaOf = (name: string): SchemaNode =>
  (publicContract().document.components.schemas as Record<string, SchemaNode>)[name]!;

export function parametersOf(path: string, method: string): Parameter[] {
  const operation = publicContract().document.paths[path]![method] as { parameters?: Parameter[] };
  return operation.parameters ?? [];
}

/** A bound written in the contract; the int64 bounds are read as doubles there, so int64 wins. */
function integerBounds(schema: SchemaNode): [bigint, bigint] {
  const int64 = schema.format === 'int64';
  const min =
    schema.minimum === undefined || (int64 && schema.minimum <= -(2 ** 63))
      ? INT64_MIN
      : BigInt(schema.minimum);
  const max =
    schema.maximum === undefined || (int64 && schema.maximum >= 2 ** 63) ? INT64_MAX : BigInt(schema.maximum);
  return [min, max];
}

/** Whether a parsed JSON value (integers as bigint) satisfies the schema. */
export function satisfies(schema: SchemaNode, value: unknown): boolean {
  if (schema.enum && !schema.enum.includes(value)) return false;
  switch (schema.type) {
    case 'string': {
      if (typeof value !== 'string' || !value.isWellFormed()) return false;
      const length = [...value].length;
      if (schema.minLength !== undefined && length < schema.minLength) return false;
      if (schema.maxLength !== undefined && length > schema.maxLength) return false;
      return schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(value);
    }
    case 'integer': {
      const integer =
        typeof value === 'bigint'
          ? value
          : typeof value === 'number' && Number.isSafeInteger(value)
            ? BigInt(value)
            : undefined;
      if (integer === undefined) return false;
      const [min, max] = integerBounds(schema);
      return integer >= min && integer <= max;
    }
    case 'object': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
      return objectViolations(schema, value as Record<string, unknown>).length === 0;
    }
    default:
      return true;
  }
}

/** The fields of an object that break its schema: missing, unknown, or with a bad value. */
export function objectViolations(schema: SchemaNode, value: Record<string, unknown>): string[] {
  const properties = schema.properties ?? {};
  const missing = (schema.required ?? []).filter((name) => !Object.hasOwn(value, name));
  const bad = Object.keys(value).filter((name) =>
    Object.hasOwn(properties, name)
      ? !satisfies(properties[name]!, value[name])
      : schema.additionalProperties === false,
  );
  return [...missing, ...bad];
}

/** Values that satisfy a scalar schema, its bounds included. */
function validFor(schema: SchemaNode): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.type === 'integer') {
    const [min, max] = integerBounds(schema);
    return fc.oneof(fc.bigInt({ min, max }), fc.constantFrom(min, max));
  }
  const maxLength = schema.maxLength ?? 20;
  const drawn = fromPattern(schema.pattern);
  const text = drawn
    ? fc.oneof(
        drawn,
        drawn.map((value) => value.repeat(Math.ceil(maxLength / value.length)).slice(0, maxLength)),
      )
    : fc.oneof(
        fc.string({ unit: 'grapheme', minLength: schema.minLength ?? 0, maxLength: Math.min(maxLength, 30) }),
        fc.string({ unit: 'grapheme-ascii', minLength: maxLength, maxLength }),
      );
  return text.filter((value) => satisfies(schema, value));
}

/**
 * Non-empty text drawn from a pattern, when fast-check can read it (not lookarounds): random text
 * would rarely match one, and drawing until it does costs seconds of every run.
 */
function fromPattern(pattern: string | undefined): fc.Arbitrary<string> | undefined {
  if (pattern === undefined) return undefined;
  try {
    return fc.stringMatching(new RegExp(pattern, 'u')).filter((value) => value.length > 0);
  } catch {
    return undefined;
  }
}

/** Values that break a scalar schema just so: one past a bound, another case, another type of number. */
function nearMiss(schema: SchemaNode): fc.Arbitrary<unknown> {
  if (schema.type === 'integer') {
    const [min, max] = integerBounds(schema);
    return fc.oneof(
      fc.constantFrom(min - 1n, max + 1n, 1.5, -0.5),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    );
  }
  const lengths = [schema.minLength ?? 0, schema.maxLength ?? 10]
    .flatMap((n) => [n - 1, n + 1])
    .filter((n) => n >= 0);
  return fc.oneof(
    ...(schema.enum ? [fc.constantFrom(...schema.enum.map((value) => String(value).toUpperCase()))] : []),
    fc
      .constantFrom(...lengths)
      .chain((length) => fc.string({ unit: 'grapheme-ascii', minLength: length, maxLength: length })),
    fc.string({
      unit: fc.constantFrom(' ', '\t', '\n', '\u007f', '\u0085', '\u00a0', 'a', '🐈'),
      maxLength: 5,
    }),
  );
}

/** Any JSON value, of any type, including the shapes careless code trips on. */
const hostile = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, '', ' ', '\u0000', '\ud800', 1.5, -0, 1e21, '1', '__proto__'),
  fc.string({ maxLength: 10 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Values for a schema: mostly valid (bounds included), then near misses, then anything at all. */
export function valueFor(schema: SchemaNode): fc.Arbitrary<unknown> {
  if (schema.type !== 'string' && schema.type !== 'integer') return hostile;
  return fc.oneof(
    { weight: 4, arbitrary: validFor(schema) },
    { weight: 1, arbitrary: nearMiss(schema) },
    { weight: 1, arbitrary: hostile },
  );
}

/** Field names that are no field of any schema, including those that reach prototypes in careless code. */
export const unknownFieldName = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'id',
    'Name',
    'name ',
  ),
  fc.string({ minLength: 1, maxLength: 8 }),
);

/** An object for an object schema: each property present or not, with any value, plus unknown fields. */
export function objectFor(schema: SchemaNode): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(schema.properties ?? {});
  return fc
    .tuple(
      ...properties.map(([, property]) => fc.option(valueFor(property), { freq: 6 })),
      fc.oneof(
        { weight: 4, arbitrary: fc.constant([] as [string, unknown][]) },
        {
          weight: 1,
          arbitrary: fc.array(fc.tuple(unknownFieldName, valueFor({})), { minLength: 1, maxLength: 2 }),
        },
      ),
    )
    .map((parts) => {
      // Read, never mutate: fast-check may hand the same tuple to this mapper again.
      const extras = parts[parts.length - 1] as [string, unknown][];
      const object: Record<string, unknown> = Object.create(null);
      properties.forEach(([name], index) => {
        if (parts[index] !== null) object[name] = parts[index];
      });
      for (const [name, value] of extras)
        if (!Object.hasOwn(schema.properties ?? {}, name)) object[name] = value;
      return object;
    });
}
