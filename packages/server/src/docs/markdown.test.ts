import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownHeadings, renderInline, renderMarkdown } from './markdown.ts';
import { referenceJson } from './reference.ts';

test('docs markdown: headings get section ids', () => {
  assert.equal(renderMarkdown('## Rate limits'), '<h2 id="section/Rate-limits">Rate limits</h2>\n');
  assert.deepEqual(markdownHeadings('intro\n\n## Errors\n\n```\n## not a heading\n```'), [
    { level: 2, text: 'Errors', id: 'section/Errors' },
  ]);
});

test('docs markdown: paragraphs, inline code, emphasis and links', () => {
  assert.equal(
    renderMarkdown('Send `Authorization: Bearer <API_KEY>`, **always**.\nSee [docs](/docs#tag/Pets).'),
    '<p>Send <code>Authorization: Bearer &lt;API_KEY&gt;</code>, <strong>always</strong>.\nSee <a href="/docs#tag/Pets">docs</a>.</p>\n',
  );
  assert.equal(
    renderInline('keys `ps_live_…` and snake_case_words'),
    'keys <code>ps_live_…</code> and snake_case_words',
  );
  assert.equal(renderInline('*one* and _two_'), '<em>one</em> and <em>two</em>');
});

test('docs markdown: HTML is escaped and unsafe link targets are dropped', () => {
  assert.equal(renderInline('<script>alert(1)</script>'), '&lt;script&gt;alert(1)&lt;/script&gt;');
  assert.equal(renderInline('<img src=x onerror=alert(1)>'), '&lt;img src=x onerror=alert(1)&gt;');
  for (const target of ['javascript:alert(1)', 'JavaScript:alert', 'vbscript:x', 'data:text/html,<b>']) {
    assert.doesNotMatch(renderInline(`[x](${target})`), /href/, target);
  }
  assert.equal(renderInline('[x](https://a.example/?q="1")'), '<a href="https://a.example/?q=%221%22">x</a>');
  assert.equal(renderInline('a "quote" & <b>'), 'a &quot;quote&quot; &amp; &lt;b&gt;');
});

test('docs markdown: tables are wrapped to scroll, alignment is a class (the CSP refuses inline styles)', () => {
  const html = renderMarkdown('| code | status |\n|---|--:|\n| `a|b` | 400 |');
  assert.match(html, /^<div class="table-wrap"><table>/);
  assert.match(html, /<th class="align-right">status<\/th>/);
  assert.doesNotMatch(html, /style=/);
});

test('docs reference: every description is rendered, no $ref is left, int64 bounds keep their digits', () => {
  assert.doesNotMatch(referenceJson, /"\$ref"/);
  assert.ok(referenceJson.includes('"minimum":-9223372036854775808,"maximum":9223372036854775807'));
  const reference = JSON.parse(referenceJson) as {
    info: { descriptionHtml: string; 'x-headings': unknown[] };
  };
  assert.match(reference.info.descriptionHtml, /<h2 id="section\/Authentication">/);
  assert.ok(reference.info['x-headings'].length >= 5);
  assert.match(referenceJson, /"title":"Pet"/);
});
