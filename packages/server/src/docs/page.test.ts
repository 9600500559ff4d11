import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import { nameProblem } from '../features/projects/rules.ts';
import { docsPage } from './page.ts';

type ParentNode = DefaultTreeAdapterMap['parentNode'];
type Element = DefaultTreeAdapterMap['element'];

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

/** The page as the HTML parser builds it: elements with their attribute names, text and comments. */
function shape(node: ParentNode, out: string[] = []): string[] {
  for (const child of node.childNodes) {
    if (child.nodeName === '#text') out.push('#text');
    else if (child.nodeName === '#comment') out.push('#comment');
    else if ('tagName' in child) {
      out.push(`<${child.tagName} ${child.attrs.map((attr) => attr.name).join(' ')}>`);
      shape(child, out);
      out.push(`</${child.tagName}>`);
    }
  }
  return out;
}

function find(node: ParentNode, test: (element: Element) => boolean): Element | undefined {
  for (const child of node.childNodes) {
    if (!('tagName' in child)) continue;
    if (test(child)) return child;
    const found = find(child, test);
    if (found) return found;
  }
  return undefined;
}

const attr = (element: Element | undefined, name: string) =>
  element?.attrs.find((candidate) => candidate.name === name)?.value;
const textOf = (element: Element | undefined) =>
  element?.childNodes.map((child) => ('value' in child ? child.value : '')).join('');

/** Pieces that have broken templates and HTML before: placeholders, quotes, closing tags, comments, `$` patterns. */
const HOSTILE = [
  '{{modulepreload}}',
  '{{title}}',
  '{{apiOrigin}}',
  '{{reference}}',
  '{{',
  '}}',
  '"',
  "'",
  '<',
  '>',
  '&',
  '&amp;',
  '&#x3C;',
  '</script>',
  '<script>alert(1)</script>',
  '</title>',
  '<!--',
  '-->',
  '<![CDATA[',
  '\u2028',
  '\u2029',
  '\ufeff',
  '$&',
  "$'",
  '$`',
  '$$',
  '/>',
  ' content="x"',
  '🐾',
];

test('property: any project name, however hostile, is only text in the page the parser builds', () => {
  const benign = shape(parse(html(docsPage({ title: 'Acme', apiOrigin: 'https://api.example.com' }))));
  const name = fc
    .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'grapheme', maxLength: 6 })), {
      minLength: 1,
      maxLength: 8,
    })
    .map((pieces) => pieces.join(''))
    .filter((candidate) => nameProblem(candidate) === undefined);
  fc.assert(
    fc.property(name, (title) => {
      const document = parse(html(docsPage({ title, apiOrigin: 'https://api.example.com' })));
      assert.deepEqual(shape(document), benign, 'the same elements, attributes and text nodes');
      const meta = (which: string) =>
        find(document, (e) => e.tagName === 'meta' && attr(e, 'name') === which);
      assert.equal(attr(meta('petstore-docs-title'), 'content'), title);
      assert.equal(attr(meta('petstore-api-origin'), 'content'), 'https://api.example.com');
      assert.equal(attr(meta('petstore-reference'), 'content'), '/docs/assets/reference.json');
      assert.equal(textOf(find(document, (e) => e.tagName === 'title')), `${title} · API reference`);
      assert.equal(textOf(find(document, (e) => attr(e, 'class') === 'brand')), title);
    }),
    { numRuns: 300, examples: [['Acme {{modulepreload}}'], ['{{title}}'], ['a $& b']] },
  );
});

test('docsPage → the site edition loads the site reference; the service edition the whole one', () => {
  const site = html(docsPage({ title: 'Acme', apiOrigin: '', edition: 'site' }));
  assert.match(site, /<meta name="petstore-reference" content="\/docs\/assets\/site-reference\.json" \/>/);
  assert.match(site, /<link rel="preload" href="\/docs\/assets\/site-reference\.json" as="fetch"/);
  assert.match(html(docsPage({ title: 'Acme', apiOrigin: '' })), /href="\/docs\/assets\/reference\.json"/);
});
