import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { PeerMessage } from '../storage/change-records.ts';
import { createEchoes } from './echoes.ts';

/** Echoes over a hand-held feed: what it sent, and which sequence numbers count as applied. */
function echoesOver() {
  const sent: PeerMessage[] = [];
  const applied = new Set<number>();
  const echoes = createEchoes({
    send: async (message) => void sent.push(message),
    applied: (seq) => applied.has(seq),
    log: { warn: () => {} },
  });
  const settled = <T>(promise: Promise<T>) => {
    let done = false;
    void promise.then(() => (done = true));
    return () => done;
  };
  return { echoes, sent, applied, settled };
}
const turn = () => new Promise((resolve) => setImmediate(resolve));

test('echo → answered once its own notification came back, it is applied here and every known instance acknowledged it', async () => {
  const { echoes, applied, settled } = echoesOver();
  echoes.heard({ kind: 'hello', instance: 'aaaaaaaaaaaaaaaa' });
  echoes.heard({ kind: 'ack', instance: 'bbbbbbbbbbbbbbbb', range: { first: 1, last: 1 } });
  const waiting = echoes.wait(7);
  const done = settled(waiting);
  echoes.notified({ first: 6, last: 8 });
  applied.add(7);
  echoes.read();
  echoes.heard({ kind: 'ack', instance: 'aaaaaaaaaaaaaaaa', range: { first: 6, last: 8 } });
  await turn();
  assert.equal(done(), false, 'one known instance has not acknowledged it');
  echoes.heard({ kind: 'ack', instance: 'bbbbbbbbbbbbbbbb', range: { first: 7, last: 7 } });
  assert.equal(await waiting, true);
});

test("echo → an instance that said bye is not waited for; an unknown instance's hello is answered with this one's", async () => {
  const { echoes, applied, sent } = echoesOver();
  echoes.heard({ kind: 'hello', instance: 'cccccccccccccccc' });
  assert.deepEqual(
    sent.map((message) => message.kind),
    ['hello'],
    'introduced in return',
  );
  echoes.heard({ kind: 'hello', instance: 'cccccccccccccccc' });
  assert.equal(sent.length, 1, 'a known instance is not answered again');
  echoes.heard({ kind: 'bye', instance: 'cccccccccccccccc' });
  echoes.notified({ first: 3, last: 3 });
  applied.add(3);
  assert.equal(await echoes.wait(3), true);
  assert.equal(echoes.peers(), 0);
});

test('property: notified ranges are acknowledged once each, when applied, whatever the order of reads', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 3 })), { maxLength: 12 }),
      fc.array(fc.integer({ min: 1, max: 45 }), { maxLength: 30 }),
      (ranges, appliedInOrder) => {
        const { echoes, applied, sent } = echoesOver();
        for (const [first, length] of ranges) echoes.notified({ first, last: first + length });
        for (const seq of appliedInOrder) {
          applied.add(seq);
          echoes.read();
        }
        const acks = sent.filter((message) => message.kind === 'ack');
        for (const ack of acks) {
          assert.ok(applied.has(ack.range.first) && applied.has(ack.range.last), 'only what is applied');
        }
        const expected = ranges.filter(
          ([first, length]) => applied.has(first) && applied.has(first + length),
        );
        assert.equal(acks.length, expected.length, 'each applied range once');
      },
    ),
    { numRuns: 300 },
  );
});
