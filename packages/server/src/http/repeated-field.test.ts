import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { repeatedFieldName } from './repeated-field.ts';

describe('repeatedFieldName', () => {
  const cases: [string, string | undefined][] = [
    ['{"name":"a","categoryId":1}', undefined],
    ['{"name":"a","name":"b"}', 'name'],
    ['{"name":"a","n\\u0061me":"b"}', 'name'],
    ['{"a":{"b":1,"b":2}}', 'b'],
    ['{"a":{"b":1},"b":{"a":1}}', undefined],
    ['[{"a":1},{"a":2}]', undefined],
    ['{"a":"\\"a\\"","\\"a\\"":1}', undefined],
    ['{"a":[1,{"a":1}],"a":2}', 'a'],
    ['{"":1,"":2}', ''],
    ['"{\\"a\\":1,\\"a\\":2}"', undefined],
  ];
  for (const [text, expected] of cases) {
    it(`${text} → ${expected ?? 'none'}`, () => assert.equal(repeatedFieldName(text), expected));
  }

  it('agrees with a parse that counts names, for generated JSON with repeats spliced in', () => {
    const name = fc.string({ maxLength: 4 });
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 6 }), fc.option(fc.nat()), (names, repeat) => {
        const fields = names.map((field) => `${JSON.stringify(field)}:[${JSON.stringify({ [field]: 1 })}]`);
        const repeated = repeat !== null && names.length > 0 ? names[repeat % names.length]! : undefined;
        if (repeated !== undefined) fields.push(`${JSON.stringify(repeated)}:null`);
        assert.equal(repeatedFieldName(`{${fields.join(',')}}`), repeated);
      }),
    );
  });
});
