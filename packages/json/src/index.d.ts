export interface JsonParserOptions {
  /** `all` (default): every integer literal becomes a bigint; `unsafe`: only those beyond ±(2^53 − 1). */
  integers?: 'all' | 'unsafe';
  /** Only values of these property names are converted. */
  keys?: Iterable<string>;
  /** Build every object with `Object.create(null)`: no field name can reach a prototype. */
  nullPrototype?: boolean;
}

/**
 * A JSON parser that keeps integer literals exact as bigint (see JsonParserOptions); throws where the
 * runtime's JSON.parse gives revivers no source text (before Node.js 21, Chrome 114).
 */
export declare function jsonParser(options?: JsonParserOptions): (text: string) => unknown;

/** JSON.parse with every integer literal as bigint. */
export declare function parseJson(text: string): unknown;

/** JSON.stringify that writes bigints as plain JSON numbers, digit for digit; `indent` spaces per level. */
export declare function stringifyJson(value: unknown, indent?: number): string;
