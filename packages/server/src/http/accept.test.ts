import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { prefersHtml } from './accept.ts';

test('prefersHtml → true for what browsers send when they open a page', () => {
  for (const accept of [
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
    'text/html',
    'text/*',
    'TEXT/HTML; charset=utf-8',
    'application/json;q=0.5, text/html',
  ]) {
    assert.equal(prefersHtml(accept), true, accept);
  }
});

test('prefersHtml → false for API clients: no header, */*, JSON, a tie, nonsense', () => {
  for (const accept of [
    undefined,
    '',
    '*/*',
    'application/json',
    'application/json, text/plain, */*',
    'text/html, application/json',
    'text/html;q=0.5, application/json',
    'text/html;q=0',
    'application/problem+json',
    'html',
    ';;;',
  ]) {
    assert.equal(prefersHtml(accept), false, String(accept));
  }
});

test('property: an Accept naming application/json or */* at a quality at least text/html’s never gets HTML', () => {
  const q = fc.constantFrom('', ';q=1', ';q=0.9', ';q=0.5', ';q=0.1', ';q=0');
  const other = fc.constantFrom('image/webp', 'application/xml;q=0.9', 'text/plain', 'application/xhtml+xml');
  fc.assert(
    fc.property(
      fc.constantFrom('application/json', '*/*'),
      q,
      q,
      fc.boolean(),
      fc.array(other, { maxLength: 3 }),
      (json, jsonQ, htmlQ, withHtml, others) => {
        const value = (suffix: string) => (suffix === '' ? 1 : Number(suffix.slice(3)));
        fc.pre(!withHtml || value(jsonQ) >= value(htmlQ));
        const parts = [...others, `${json}${jsonQ}`, ...(withHtml ? [`text/html${htmlQ}`] : [])];
        assert.equal(prefersHtml(parts.join(', ')), false, parts.join(', '));
      },
    ),
  );
});
