import fc from 'fast-check';

const SURROGATES_START = 0xd800;
/** The surrogates' block, which no well-formed string holds alone. */
const SURROGATES = 0xe000 - SURROGATES_START;

/**
 * Any code point but a surrogate: fast-check's `unit: 'binary'` (the same values from the same seeds,
 * shrunk the same way), but mapping a string back to its index by arithmetic. fast-check's own does it
 * through a table of all 1.1 million code points, built by the first `fc.string` to use the unit
 * (2 s of CPU) and kept for the rest of the process (190 MB, which every later collection walks).
 */
export const anyCodePoint = fc.nat({ max: 0x10ffff - SURROGATES }).map(
  (index) => String.fromCodePoint(index < SURROGATES_START ? index : index + SURROGATES),
  (value) => {
    const point = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (point === undefined || String.fromCodePoint(point) !== value) throw new Error('not one code point');
    if (point >= SURROGATES_START && point < SURROGATES_START + SURROGATES) throw new Error('a surrogate');
    return point < SURROGATES_START ? point : point - SURROGATES;
  },
);

/** `fc.string({ unit: 'binary', ...constraints })`, without the table. */
export const binaryString = (constraints: Omit<fc.StringSharedConstraints, 'unit'> = {}) =>
  fc.string({ ...constraints, unit: anyCodePoint });
