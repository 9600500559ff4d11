import { fullFormats } from 'ajv-formats/dist/formats.js';

/**
 * The JSON Schema keywords the two contracts use for request input ($refs resolved), read here
 * independently of the server's own checks (src/validation/): this is what the generated requests are
 * judged by.
 */
export interface Schema {
  type?: string | string[];
  format?: string;
  enum?: readonly unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  required?: readonly string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  example?: unknown;
}

const FORMAT_RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** An integer schema's bounds, exact: the format's range tightens bounds read as doubles (2^63). */
export function integerBounds(schema: Schema): [bigint, bigint] {
  const [formatMin, formatMax] = FORMAT_RANGES[schema.format ?? ''] ?? [-(2n ** 70n), 2n ** 70n];
  const min = schema.minimum === undefined ? formatMin : BigInt(Math.ceil(schema.minimum));
  const max = schema.maximum === undefined ? formatMax : BigInt(Math.floor(schema.maximum));
  return [min > formatMin ? min : formatMin, max < formatMax ? max : formatMax];
}

/** The types a schema allows (`type: [string, 'null']` included); undefined allows any. */
export const typesOf = (schema: Schema): string[] | undefined =>
  schema.type === undefined ? undefined : ([] as string[]).concat(schema.type);

/** A JSON value's integer, exact (integers arrive as bigint or as numbers that are whole). */
export function integerOf(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  return undefined;
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return integerOf(value) !== undefined;
    case 'number':
      return typeof value === 'number' || typeof value === 'bigint';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return false;
  }
}

const dateTime = fullFormats['date-time'] as { validate(text: string): boolean };
/** RFC 3339's ABNF separates date and time by `T` (any case); the space of its note is not that grammar. */
const isDateTime = (text: string) => /^\d{4}-\d\d-\d\d[Tt]/.test(text) && dateTime.validate(text);

const patterns = new Map<string, RegExp>();
const patternOf = (source: string) => {
  let regex = patterns.get(source);
  if (!regex) patterns.set(source, (regex = new RegExp(source, 'u')));
  return regex;
};

/** Whether a JSON value (integers as bigint where exact) satisfies the schema. */
export function satisfies(schema: Schema, value: unknown): boolean {
  const types = typesOf(schema);
  if (types && !types.some((type) => hasType(type, value))) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  if (typeof value === 'string') {
    // A lone surrogate is no Unicode text: no JSON Schema string holds one.
    if (!value.isWellFormed()) return false;
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) return false;
    if (schema.maxLength !== undefined && length > schema.maxLength) return false;
    if (schema.pattern !== undefined && !patternOf(schema.pattern).test(value)) return false;
    if (schema.format === 'date-time' && !isDateTime(value)) return false;
  }
  const integer = types?.includes('integer') ? integerOf(value) : undefined;
  if (integer !== undefined) {
    const [min, max] = integerBounds(schema);
    if (integer < min || integer > max) return false;
  }
  if (hasType('object', value) && types?.includes('object')) {
    const record = value as Record<string, unknown>;
    const properties = schema.properties ?? {};
    if ((schema.required ?? []).some((name) => !Object.hasOwn(record, name))) return false;
    for (const [name, field] of Object.entries(record)) {
      const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
      if (property ? !satisfies(property, field) : schema.additionalProperties === false) return false;
    }
  }
  return true;
}
