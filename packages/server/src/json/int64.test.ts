import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseInt64 } from './int64.ts';

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
