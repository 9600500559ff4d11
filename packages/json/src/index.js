// Lossless JSON, shared by the server, the typed client and the docs page (served to browsers as it
// is, so this file is plain JavaScript with its types in index.d.ts). Integer literals are read from
// the reviver's `context.source`, so 9223372036854775807 never becomes 9223372036854775808.

const INTEGER_LITERAL = /^-?(?:0|[1-9]\d*)$/;

/** Throws unless this runtime hands revivers each value's source text (Node.js 21+, Chrome 114+,
 * Firefox 135+, Safari 18.4+): without it, integers beyond 2^53 could not be kept exact. */
function requireSourceText() {
  let supported = false;
  JSON.parse('1', (_key, value, context) => {
    supported = typeof context?.source === 'string';
    return value;
  });
  if (!supported) {
    throw new Error(
      "this runtime's JSON.parse gives revivers no source text; use Node.js 24, or a browser from 2025 or later",
    );
  }
}

/** jsonParser's options, read once for both ways of parsing. */
function settings(options) {
  return {
    unsafeOnly: options.integers === 'unsafe',
    keys: options.keys === undefined ? undefined : new Set(options.keys),
    nullPrototype: options.nullPrototype === true,
  };
}

function reviver({ unsafeOnly, keys, nullPrototype }) {
  return (key, value, context) => {
    if (nullPrototype && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      // Object.assign onto a prototype-less target defines "__proto__" as a plain field, never a prototype.
      return Object.assign(Object.create(null), value);
    }
    if (typeof value !== 'number' || (keys !== undefined && !keys.has(key))) return value;
    const source = context?.source;
    if (source === undefined || !INTEGER_LITERAL.test(source)) return value;
    if (unsafeOnly && Number.isSafeInteger(value)) return value;
    return BigInt(source);
  };
}

/**
 * Text in which every number literal is an integer of at most 15 digits (below 2^53, so a double holds
 * it exactly) needs no source text: no digit is followed by `.`, `e` or `E`, and no run of 16 digits
 * appears (inside strings too, which only sends such text the slow way).
 */
const NEEDS_SOURCE = /\d[.eE]|\d{16}/;

/**
 * What the reviver makes of a value parsed plainly from text NEEDS_SOURCE does not match: the
 * same values, keys and prototypes, several times faster (a reviver given source text makes JSON.parse
 * build every value's text).
 */
function converter({ unsafeOnly, keys, nullPrototype }) {
  const convert = (key, value) => {
    if (typeof value === 'number') {
      return unsafeOnly || (keys !== undefined && !keys.has(key)) ? value : BigInt(value);
    }
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = convert(String(i), value[i]);
      return value;
    }
    // Assigning "__proto__" defines a field: the parsed object holds it as its own, the target has no
    // prototype to set.
    const target = nullPrototype ? Object.create(null) : value;
    for (const name of Object.keys(value)) target[name] = convert(name, value[name]);
    return target;
  };
  return convert;
}

/**
 * A JSON parser that turns integer literals into bigint: every one (`integers: 'all'`, the default),
 * or only those a number cannot hold exactly (`'unsafe'`); with `keys`, only values of those property
 * names. Fractions and exponents (`1.5`, `1e3`, `12.0`) stay numbers. With `nullPrototype`, every object
 * is made without a prototype, so no field name (`__proto__`, `constructor`) can reach one.
 */
export function jsonParser(options = {}) {
  requireSourceText();
  const read = settings(options);
  const revive = reviver(read);
  const convert = converter(read);
  return (text) => (NEEDS_SOURCE.test(text) ? JSON.parse(text, revive) : convert('', JSON.parse(text)));
}

/** JSON.parse with every integer literal as bigint. */
export function parseJson(text) {
  parseAll ??= jsonParser();
  return parseAll(text);
}
let parseAll;

function write(value, indent, depth) {
  if (value !== null && typeof value === 'object' && typeof value.toJSON === 'function') {
    return write(value.toJSON(), indent, depth);
  }
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return 'null';
  const inner = indent ? `\n${indent.repeat(depth + 1)}` : '';
  const outer = indent ? `\n${indent.repeat(depth)}` : '';
  const colon = indent ? ': ' : ':';
  const items = Array.isArray(value)
    ? value.map((item) => write(item, indent, depth + 1) ?? 'null')
    : Object.keys(value).flatMap((key) => {
        const text = write(value[key], indent, depth + 1);
        return text === undefined ? [] : [`${JSON.stringify(key)}${colon}${text}`];
      });
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return open + close;
  return `${open}${inner}${items.join(`,${inner}`)}${outer}${close}`;
}

/** JSON.stringify that writes bigints as plain JSON numbers, digit for digit; `indent` spaces per level. */
export function stringifyJson(value, indent = 0) {
  return write(value, ' '.repeat(indent), 0);
}
