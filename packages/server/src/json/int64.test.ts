import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseInt64, parseJsonLossless } from './int64.ts';

describe('parseJsonLossless', () => {
  it('keeps integers at the int64 bounds digit for digit', () => {
    const value = parseJsonLossless('{"a":9223372036854775807,"b":-9223372036854775808}') as Record<
      string,
      bigint
    >;
    assert.equal(value.a, 9223372036854775807n);
    assert.equal(value.b, -9223372036854775808n);
  });

  it('leaves fractions and exponents as numbers so validation can reject them', () => {
    const value = parseJsonLossless('[1.5, 1e3, 12.0]') as unknown[];
    assert.deepEqual(value, [1.5, 1000, 12]);
    assert.equal(typeof value[2], 'number');
  });

  it('keeps strings that look like numbers as strings', () => {
    assert.deepEqual(parseJsonLossless('{"a":"12"}'), { a: '12' });
  });
});

describe('parseInt64', () => {
  it('accepts canonical decimals across the signed range', () => {
    assert.equal(parseInt64('0'), 0n);
    assert.equal(parseInt64('9223372036854775807'), 9223372036854775807n);
    assert.equal(parseInt64('-9223372036854775808'), -9223372036854775808n);
  });

  it('rejects non-canonical, out-of-range and non-numeric text', () => {
    for (const text of ['', '01', '+1', '1.0', '1e3', ' 1', '0x10', '9223372036854775808', '-0', 'abc']) {
      assert.equal(parseInt64(text), undefined, text);
    }
  });
});
