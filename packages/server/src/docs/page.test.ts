import assert from 'node:assert/strict';
import { test } from 'node:test';
import { docsPage } from './page.ts';

const html = (page: { body: Buffer }) => page.body.toString('utf8');

test('docsPage → the title escaped into <title>, the heading meta and the brand', () => {
  const page = docsPage({ title: 'Acme <Docs> & "Co"', apiOrigin: '' });
  const text = html(page);
  assert.match(text, /<title>Acme &lt;Docs&gt; &amp; &quot;Co&quot; · API reference<\/title>/);
  assert.match(text, /<meta name="petstore-docs-title" content="Acme &lt;Docs&gt; &amp; &quot;Co&quot;" \/>/);
  assert.match(text, /<a class="brand" href="#top">Acme &lt;Docs&gt; &amp; &quot;Co&quot;<\/a>/);
  assert.doesNotMatch(text, /\{\{/);
});

test('docsPage → a foreign API origin is named in the HTML and added to connect-src only', () => {
  const own = docsPage({ title: 'Acme', apiOrigin: '' });
  const foreign = docsPage({ title: 'Acme', apiOrigin: 'https://api.petstore.example' });
  assert.match(own.csp, /connect-src 'self';/);
  assert.match(foreign.csp, /connect-src 'self' https:\/\/api\.petstore\.example;/);
  assert.match(foreign.csp, /script-src 'self';/);
  assert.match(
    html(foreign),
    /<meta name="petstore-api-origin" content="https:\/\/api\.petstore\.example" \/>/,
  );
  assert.notEqual(own.etag, foreign.etag);
});

test('docsPage → the same options give the same page (and ETag); another title another ETag', () => {
  const first = docsPage({ title: 'Acme', apiOrigin: 'http://127.0.0.1:8080' });
  assert.equal(docsPage({ title: 'Acme', apiOrigin: 'http://127.0.0.1:8080' }), first);
  assert.notEqual(docsPage({ title: 'Acme 2', apiOrigin: 'http://127.0.0.1:8080' }).etag, first.etag);
  assert.ok(first.encoded.br && first.encoded.br.length < first.body.length);
});

test('docsPage → an apiOrigin that is not an origin is refused', () => {
  for (const apiOrigin of [
    'api.example.com',
    'https://api.example.com/v1',
    'https://api.example.com/',
    'javascript:alert(1)',
    "https://x.example'",
  ]) {
    assert.throws(() => docsPage({ title: 'Acme', apiOrigin }), /apiOrigin must be/, apiOrigin);
  }
});
