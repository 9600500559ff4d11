import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundedLru } from './bounded-lru.ts';

describe('boundedLru', () => {
  it('holds at most its entries; a new one evicts the least recently used alone', () => {
    const cache = boundedLru<string, number>(3);
    for (const key of ['a', 'b', 'c']) cache.set(key, key.charCodeAt(0));
    assert.equal(cache.get('a'), 97, 'a read makes "a" the most recently used');
    cache.set('d', 100);
    assert.equal(cache.size, 3);
    assert.deepEqual([...cache.keys()].sort(), ['a', 'c', 'd'], '"b" went, nothing else');
    for (let i = 0; i < 1_000; i += 1) cache.set(`k${i}`, i);
    assert.equal(cache.size, 3);
    assert.deepEqual([...cache.keys()].sort(), ['k997', 'k998', 'k999']);
  });

  it('calls dispose for the entry it evicts, and keeps a ttl', () => {
    let now = 1;
    const disposed: string[] = [];
    const cache = boundedLru<string, string>(2, {
      ttl: 1_000,
      ttlResolution: 0,
      perf: { now: () => now },
      dispose: (_value, key) => disposed.push(key),
    });
    cache.set('x', '1');
    cache.set('y', '2');
    cache.set('z', '3');
    assert.deepEqual(disposed, ['x']);
    now = 1_002;
    assert.equal(cache.get('y'), undefined, 'past its ttl');
  });
});
