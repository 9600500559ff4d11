import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchesOf, decodeSlots } from './request-log-batch.ts';
import { codePoints, pagesOf } from './request-log-pages.ts';
import type { LoggedRequest } from './request-log-records.ts';

const request = (projectId: string, n: number, path = `/v1/pets/${n}`): LoggedRequest => ({
  projectId,
  at: 1_764_000_000_000 + n,
  requestId: `req-${n}`,
  keyId: `key_${projectId}`,
  keyLabel: n % 3 === 0 ? null : `Key ✓ ${projectId}`,
  operation: 'getPet',
  method: 'GET',
  path,
  status: 200,
  code: null,
  latencyMs: 1,
  address: '192.0.2.1',
});

/** substr as SQL counts it: by code point, from 1. */
const substr = (text: string, from: number, length: number) =>
  [...text].slice(from - 1, from - 1 + length).join('');

describe('request log pages', () => {
  for (const shared of [true, false])
    it(`batches of many projects → one page an expiry; each part read as SQL reads it decodes to its project’s requests alone (${shared ? 'shared header' : 'own texts'})`, () => {
      const entries = Array.from({ length: 600 }, (_, n) =>
        request(`prj_${n % 7}`, n, n % 5 === 0 ? `/v1/pets/🐕${n}/é` : `/v1/pets/${n}`),
      );
      const batches = batchesOf(entries, !shared);
      const pages = pagesOf(batches, (batch) => (batch.projectId === 'prj_3' ? 2 : 1), shared);
      assert.deepEqual(
        pages.map((page) => [page.expiresAt, page.parts.length, page.requests]),
        [
          [1, 6, 600 - 86],
          [2, 1, 86],
        ],
      );
      for (const page of pages) {
        assert.equal(
          codePoints(page.rows),
          page.headerLength + page.parts.reduce((sum, part) => sum + part.length, 0),
        );
        for (const { batch, from, length } of page.parts) {
          const text =
            substr(page.rows, 1, page.headerLength) +
            substr(page.rows, from, length) +
            (page.headerLength > 0 ? '}' : '');
          const slots = decodeSlots(text);
          assert.deepEqual(slots, batch.slots);
          assert.ok(slots.every((slot) => slot![2] === `key_${batch.projectId}`));
        }
      }
    });

  it('codePoints → counts a character outside the BMP once, as SQL does', () => {
    assert.equal(codePoints('ab'), 2);
    assert.equal(codePoints('a🐕é'), 3);
  });
});
