import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parsePayload, peerPayload } from './postgres-listen.ts';

const schema = fc.stringMatching(/^[a-z_][a-z0-9_]{0,40}$/);
const instance = fc.stringMatching(/^[0-9a-f]{16}$/);
const range = fc
  .tuple(fc.integer({ min: 1, max: 2 ** 53 - 1 }), fc.nat(1_000))
  .map(([first, length]) => ({ first, last: Math.min(first + length, 2 ** 53 - 1) }));
const message = fc.oneof(
  fc.record({ kind: fc.constantFrom('hello' as const, 'bye' as const), instance }),
  fc.record({ kind: fc.constant('ack' as const), instance, range }),
);

test("property: a peer's message → read back as sent by its schema's listener, by no other schema's", () => {
  fc.assert(
    fc.property(schema, schema, message, (mine, other, sent) => {
      assert.deepEqual(parsePayload(peerPayload(sent, mine), mine), {
        peer: JSON.parse(JSON.stringify(sent)),
      });
      if (other !== mine) assert.equal(parsePayload(peerPayload(sent, mine), other), undefined);
    }),
  );
});

test("the trigger's payloads → a change: the schema alone (migration 090), with its range (150)", () => {
  assert.deepEqual(parsePayload('public', 'public'), { change: undefined });
  assert.deepEqual(parsePayload('public 12 14', 'public'), { change: { first: 12, last: 14 } });
  for (const other of [
    'publicity 1 2',
    'other 1 2',
    'public hello xyz',
    'public ack 0123456789abcdef 1',
    '',
  ]) {
    assert.equal(parsePayload(other, 'public'), undefined, other);
  }
});
