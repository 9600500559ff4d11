import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sharedRead } from './shared-read.ts';

/** A read whose answers the test releases by hand; `value` is what the database holds when a read is sent. */
function controlledRead() {
  let value = 0;
  const sent: { valueAtSend: number; release: () => void; fail: (error: Error) => void }[] = [];
  const read = () =>
    new Promise<number>((resolve, reject) => {
      const valueAtSend = value;
      sent.push({ valueAtSend, release: () => resolve(valueAtSend), fail: reject });
    });
  return {
    read,
    sent,
    set(next: number) {
      value = next;
    },
  };
}

describe('sharedRead', () => {
  it('callers in one event-loop turn share one read', async () => {
    const db = controlledRead();
    const get = sharedRead(db.read);
    const answers = Promise.all([get(), get(), get()]);
    await nextTurn();
    assert.equal(db.sent.length, 1);
    db.sent[0]!.release();
    assert.deepEqual(await answers, [0, 0, 0]);
  });

  it('a caller arriving while a read is in flight gets the next read, sent after its call', async () => {
    const db = controlledRead();
    const get = sharedRead(db.read);
    const early = get();
    await nextTurn();
    assert.equal(db.sent.length, 1, 'the first read is in flight');
    db.set(1);
    const late = [get(), get()];
    await nextTurn();
    assert.equal(db.sent.length, 1, 'nothing more is sent while one read is in flight');
    db.sent[0]!.release();
    assert.equal(await early, 0);
    await nextTurn();
    assert.equal(db.sent.length, 2, 'the callers that came later share a second read');
    db.sent[1]!.release();
    assert.deepEqual(await Promise.all(late), [1, 1]);
  });

  it('a failed read rejects its callers only; the next caller gets a new read', async () => {
    const db = controlledRead();
    const get = sharedRead(db.read);
    const failing = [get(), get()];
    await nextTurn();
    db.sent[0]!.fail(new Error('connection lost'));
    for (const answer of failing) await assert.rejects(answer, /connection lost/);
    const again = get();
    await nextTurn();
    db.sent[1]!.release();
    assert.equal(await again, 0);
  });
});
