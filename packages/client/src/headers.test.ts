import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readNextLink, readRateLimit, readRetryAfter } from './headers.ts';

test('readRetryAfter → delta-seconds as is, an HTTP-date as seconds left rounded up, junk undefined', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  const at = (value: string) => readRetryAfter(new Headers({ 'retry-after': value }), now);
  assert.equal(at('18'), 18);
  assert.equal(at('Thu, 01 Jan 2026 12:00:30 GMT'), 30);
  assert.equal(at('Thu, 01 Jan 2026 11:00:00 GMT'), 0);
  assert.equal(at('-1'), undefined);
  assert.equal(at('soon'), undefined);
  assert.equal(readRetryAfter(new Headers(), now), undefined);
});

test('readRateLimit → the three X-RateLimit headers, or undefined when one is missing', () => {
  const full = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1767268860' };
  assert.deepEqual(readRateLimit(new Headers(full)), { limit: 60, remaining: 0, reset: 1_767_268_860 });
  assert.equal(readRateLimit(new Headers({ ...full, 'x-ratelimit-reset': '' })), undefined);
});

test('readNextLink → the rel="next" target among several links, unquoted rel and rel lists included', () => {
  const next = (link: string) => readNextLink(new Headers({ link }));
  assert.equal(next('</v1/pets?cursor=a>; rel="next"'), '/v1/pets?cursor=a');
  assert.equal(
    next('</docs>; rel="deprecation"; type="text/html", </v1/pets?cursor=b>; rel=next'),
    '/v1/pets?cursor=b',
  );
  assert.equal(next('</v1/pets?cursor=c>; rel="prefetch next"'), '/v1/pets?cursor=c');
  assert.equal(next('</v1/pets>; rel="successor-version"'), undefined);
  assert.equal(readNextLink(new Headers()), undefined);
});
