// Lossless JSON, shared by the server, the typed client and the docs page (served to browsers as it
// is, so this file is plain JavaScript with its types in index.d.ts). Integer literals are read from
// the reviver's `context.source`, so 9223372036854775807 never becomes 9223372036854775808.

const INTEGER_LITERAL = /^-?(?:0|[1-9]\d*)$/;

/**
 * Whether this runtime hands the reviver the source text of each value (V8 11.4+: Node.js 21+,
 * Chrome 114+). Where it does not (Node.js 20, older browsers), `jsonParser` reads the text itself.
 */
export const losslessParsingSupported = (() => {
  let supported = false;
  JSON.parse('1', (_key, value, context) => {
    supported = typeof context?.source === 'string';
    return value;
  });
  return supported;
})();

function reviver(options) {
  const unsafeOnly = options.integers === 'unsafe';
  const keys = options.keys === undefined ? undefined : new Set(options.keys);
  const nullPrototype = options.nullPrototype === true;
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
 * A JSON parser that turns integer literals into bigint: every one (`integers: 'all'`, the default),
 * or only those a number cannot hold exactly (`'unsafe'`); with `keys`, only values of those property
 * names. Fractions and exponents (`1.5`, `1e3`, `12.0`) stay numbers. With `nullPrototype`, every object
 * is made without a prototype, so no field name (`__proto__`, `constructor`) can reach one.
 */
export function jsonParser(options = {}) {
  const revive = reviver(options);
  if (!losslessParsingSupported) return (text) => parseWithSource(String(text), revive);
  return (text) => JSON.parse(text, revive);
}

/** The parser `jsonParser` uses where the runtime lacks `context.source`; exported to be tested everywhere. */
export function jsonParserWithoutSource(options = {}) {
  const revive = reviver(options);
  return (text) => parseWithSource(String(text), revive);
}

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A string literal's extent; JSON.parse of it then checks escapes and control characters. */
const STRING = /"(?:[^"\\]|\\.)*"/sy;
const LITERALS = [
  ['true', true],
  ['false', false],
  ['null', null],
];

/**
 * JSON.parse for runtimes whose reviver gets no `context.source`: the same grammar and result, with
 * `revive(key, number, { source })` applied to each number and `revive(key, object)` to each object
 * (the only values jsonParser's reviver changes).
 * Strings are decoded by JSON.parse itself; `__proto__` keys become own properties, as in JSON.parse.
 */
function parseWithSource(text, revive) {
  let at = 0;
  const fail = () => {
    const what =
      at < text.length ? `character ${JSON.stringify(text[at])} at position ${at}` : 'end of input';
    throw new SyntaxError(`Unexpected ${what} in JSON`);
  };
  const skip = () => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.exec(text);
    at = WHITESPACE.lastIndex;
  };
  const take = (pattern) => {
    pattern.lastIndex = at;
    const found = pattern.exec(text)?.[0];
    if (found !== undefined) at = pattern.lastIndex;
    return found;
  };
  const string = () => JSON.parse(take(STRING) ?? fail());
  const expect = (char) => {
    skip();
    if (text[at] !== char) fail();
    at++;
  };
  /** After an item: true for `,` (another follows), false for the closing bracket. */
  const more = (close) => {
    skip();
    if (text[at] === ',' || text[at] === close) return text[at++] === ',';
    return fail();
  };

  const value = (key) => {
    skip();
    const char = text[at];
    if (char === '{') {
      at++;
      const object = {};
      skip();
      if (text[at] === '}') return (at++, revive(key, object, undefined));
      do {
        skip();
        const name = string();
        expect(':');
        const item = value(name);
        if (name === '__proto__') {
          Object.defineProperty(object, name, {
            value: item,
            writable: true,
            enumerable: true,
            configurable: true,
          });
        } else object[name] = item;
      } while (more('}'));
      return revive(key, object, undefined);
    }
    if (char === '[') {
      at++;
      const array = [];
      skip();
      if (text[at] === ']') return (at++, array);
      do array.push(value(String(array.length)));
      while (more(']'));
      return array;
    }
    if (char === '"') return string();
    const number = take(NUMBER);
    if (number !== undefined) return revive(key, Number(number), { source: number });
    for (const [word, literal] of LITERALS) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return literal;
      }
    }
    return fail();
  };

  const result = value('');
  skip();
  if (at !== text.length) fail();
  return result;
}

/** JSON.parse with every integer literal as bigint. */
export const parseJson = jsonParser();

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
