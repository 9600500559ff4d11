import { quoted } from '../errors.ts';
import { INT64_MAX, INT64_MIN } from '../json/int64.ts';
import { parseDateTime } from './date-time.ts';
import { unseenCharacter } from '../text/unseen.ts';

/** The subset of JSON Schema the contract uses for request input (`$ref`s already resolved). */
export interface Schema {
  /** One type, or several (`[integer, 'null']`: an integer or null). */
  type?: string | readonly string[];
  format?: string;
  enum?: readonly unknown[];
  required?: readonly string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  description?: string;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
}

export interface SchemaViolation {
  /** Dotted path of the offending value, e.g. `name`; empty for the document itself. */
  path: string;
  message: string;
}

const TYPE_NAMES: Record<string, string> = {
  object: 'an object',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  array: 'an array',
};

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'bigint') return 'an integer';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return `a ${typeof value}`;
}

function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/** Integers arrive as bigint (lossless parsing); a number is an integer only if it is exact. */
function asInteger(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  return undefined;
}

/** The tighter of a schema bound and the format's own range (a bound read as a float may be off by one). */
function bound(
  declared: number | bigint | undefined,
  formatLimit: bigint | undefined,
  tighter: (a: bigint, b: bigint) => boolean,
): bigint | undefined {
  const value = declared === undefined ? undefined : BigInt(declared);
  if (value === undefined) return formatLimit;
  if (formatLimit === undefined) return value;
  return tighter(value, formatLimit) ? value : formatLimit;
}

/**
 * Compiles a schema into a checker returning the first violation. No coercion: "12" is not 12.
 * Patterns are compiled once, with the `u` flag as JSON Schema requires.
 */
export function compileSchema(schema: Schema): (value: unknown) => SchemaViolation | undefined {
  const patterns = new Map<string, RegExp>();
  const patternFor = (source: string) => {
    let regex = patterns.get(source);
    if (!regex) {
      regex = new RegExp(source, 'u');
      patterns.set(source, regex);
    }
    return regex;
  };

  const check = (node: Schema, value: unknown, path: string): SchemaViolation | undefined => {
    if (Array.isArray(node.type)) {
      if (value === null && node.type.includes('null')) return undefined;
      let first: SchemaViolation | undefined;
      for (const type of node.type.filter((name) => name !== 'null')) {
        const violation = check({ ...node, type }, value, path);
        if (!violation) return undefined;
        first ??= violation;
      }
      return first;
    }
    const label = path === '' ? 'the body' : path;
    const wrongType = (): SchemaViolation => ({
      path,
      message: `${label} must be ${TYPE_NAMES[String(node.type ?? '')] ?? String(node.type)}, got ${describeValue(value)}`,
    });

    switch (node.type) {
      case 'object': {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return wrongType();
        const record = value as Record<string, unknown>;
        const properties = node.properties ?? {};
        for (const name of node.required ?? []) {
          if (!Object.hasOwn(record, name)) {
            const at = path === '' ? name : `${path}.${name}`;
            return { path: at, message: `${at} is required` };
          }
        }
        for (const [name, field] of Object.entries(record)) {
          const at = path === '' ? name : `${path}.${name}`;
          const propertySchema = Object.hasOwn(properties, name) ? properties[name] : undefined;
          if (propertySchema === undefined) {
            if (node.additionalProperties === false)
              return { path: at, message: `${quoted(at)} is not a known field` };
            continue;
          }
          const violation = check(propertySchema, field, at);
          if (violation) return violation;
        }
        return undefined;
      }
      case 'string': {
        if (typeof value !== 'string') return wrongType();
        if (!value.isWellFormed()) return { path, message: `${label} contains a lone UTF-16 surrogate` };
        const length =
          node.minLength !== undefined || node.maxLength !== undefined ? codePointLength(value) : 0;
        if (node.minLength !== undefined && length < node.minLength) {
          return { path, message: `${label} must be at least ${node.minLength} character(s) long` };
        }
        if (node.maxLength !== undefined && length > node.maxLength) {
          return { path, message: `${label} must be at most ${node.maxLength} characters long` };
        }
        if (node.enum && !node.enum.includes(value)) {
          return { path, message: `${label} must be one of ${node.enum.join(', ')}` };
        }
        if (node.format === 'date-time' && parseDateTime(value) === undefined) {
          return { path, message: `${label} must be an RFC 3339 date-time, e.g. 2030-01-31T00:00:00Z` };
        }
        if (node.pattern && !patternFor(node.pattern).test(value)) {
          // Names and labels refuse what a reader cannot see: say which character, as the services do.
          const unseen = unseenCharacter(value);
          if (unseen)
            return { path, message: `${label} must not contain ${unseen.codePoint} (${unseen.kind})` };
          return {
            path,
            message: `${label} has an invalid format${node.description ? `: ${node.description}` : ''}`,
          };
        }
        return undefined;
      }
      case 'integer': {
        const integer = asInteger(value);
        if (integer === undefined) {
          if (typeof value === 'number' && Number.isInteger(value)) {
            return { path, message: `${label} is out of range: write it as an exact 64-bit integer` };
          }
          return wrongType();
        }
        const lower = bound(node.minimum, node.format === 'int64' ? INT64_MIN : undefined, (a, b) => a > b);
        const upper = bound(node.maximum, node.format === 'int64' ? INT64_MAX : undefined, (a, b) => a < b);
        if ((lower !== undefined && integer < lower) || (upper !== undefined && integer > upper)) {
          return { path, message: `${label} must be between ${lower ?? '-∞'} and ${upper ?? '∞'}` };
        }
        if (node.enum && !node.enum.some((allowed) => BigInt(allowed as number) === integer)) {
          return { path, message: `${label} must be one of ${node.enum.join(', ')}` };
        }
        return undefined;
      }
      case 'array': {
        if (!Array.isArray(value)) return wrongType();
        if (node.minItems !== undefined && value.length < node.minItems) {
          return { path, message: `${label} must hold at least ${node.minItems} item(s)` };
        }
        if (node.maxItems !== undefined && value.length > node.maxItems) {
          return { path, message: `${label} must hold at most ${node.maxItems} items` };
        }
        if (node.items) {
          for (const [index, item] of value.entries()) {
            const violation = check(node.items, item, `${path}[${index}]`);
            if (violation) return violation;
          }
        }
        return undefined;
      }
      case 'boolean':
        return typeof value === 'boolean' ? undefined : wrongType();
      default:
        if (node.enum && !node.enum.includes(value)) {
          return { path, message: `${label} must be one of ${node.enum.join(', ')}` };
        }
        return undefined;
    }
  };

  return (value) => check(schema, value, '');
}
