import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { binaryString } from '../test/text-arbitraries.ts';
import { ApiError, errorBody, printable, quoted, QUOTED_MAX_LENGTH } from './errors.ts';

/** What the contract's Error.message and Error.param patterns refuse, and what else printable escapes. */
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|\p{Cs}/u;

const anyText = binaryString({ maxLength: 300 });

test('quoted → a JSON string literal of the text (so it reads back exactly) with nothing hidden in it', () => {
  fc.assert(
    fc.property(anyText, (text) => {
      const quote = quoted(text);
      assert.ok(!HIDDEN.test(quote), quote);
      const points = Array.from(text);
      const expected =
        points.length <= QUOTED_MAX_LENGTH ? text : `${points.slice(0, QUOTED_MAX_LENGTH - 1).join('')}…`;
      assert.equal(JSON.parse(quote), expected);
    }),
  );
  assert.equal(quoted('a\u0003b'), '"a\\u0003b"');
  assert.equal(quoted('say "hi"\\'), '"say \\"hi\\"\\\\"');
  assert.equal(quoted('\u202eevil'), '"\\u202eevil"');
});

test('errorBody → message and param without control, direction or lone surrogate characters, whoever built them', () => {
  fc.assert(
    fc.property(anyText, anyText, (message, param) => {
      const body = errorBody(new ApiError('invalid_body', message || 'x', { param }));
      assert.ok(!HIDDEN.test(body.message), body.message);
      assert.ok(!HIDDEN.test(body.param!), body.param);
    }),
  );
  assert.equal(printable('tab\there'), 'tab\\u0009here');
  assert.equal(printable('plain é 🐈'), 'plain é 🐈');
});

test('ApiError → a refusal captures no stack (an answer, not a fault), an internal error keeps its own', () => {
  const limit = Error.stackTraceLimit;
  const refusal = new ApiError('rate_limited', 'too many requests');
  assert.equal(refusal.stack?.split('\n').filter((line) => line.trimStart().startsWith('at ')).length, 0);
  const fault = new ApiError('internal_error', 'something broke');
  assert.ok(fault.stack?.includes('errors.test.ts'), fault.stack);
  assert.equal(Error.stackTraceLimit, limit, 'the process-wide limit is left as it was');
});
