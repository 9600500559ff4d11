/**
 * Whether this runtime hands the reviver the source text of each value (V8 11.4+: Node.js 21+, Chrome
 * 114+). Where it does not, `jsonParser` reads the text itself: parsing is lossless either way.
 */
export declare const losslessParsingSupported: boolean;

export interface JsonParserOptions {
  /** `all` (default): every integer literal becomes a bigint; `unsafe`: only those beyond ±(2^53 − 1). */
  integers?: 'all' | 'unsafe';
  /** Only values of these property names are converted. */
  keys?: Iterable<string>;
  /** Build every object with `Object.create(null)`: no field name can reach a prototype. */
  nullPrototype?: boolean;
}

/** A JSON parser that keeps integer literals exact as bigint (see JsonParserOptions). */
export declare function jsonParser(options?: JsonParserOptions): (text: string) => unknown;

/** The parser `jsonParser` uses where the runtime lacks `context.source`; exported to be tested everywhere. */
export declare function jsonParserWithoutSource(options?: JsonParserOptions): (text: string) => unknown;

/** JSON.parse with every integer literal as bigint. */
export declare const parseJson: (text: string) => unknown;

/** JSON.stringify that writes bigints as plain JSON numbers, digit for digit; `indent` spaces per level. */
export declare function stringifyJson(value: unknown, indent?: number): string;
