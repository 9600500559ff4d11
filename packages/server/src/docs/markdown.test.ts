import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ERROR_STATUS } from '../errors.ts';
import { codeTableRows, plainText, renderInline, renderMarkdown, splitSections } from './markdown.ts';
import { referenceJson } from './reference.ts';

test('docs markdown: headings get section ids', () => {
  assert.equal(renderMarkdown('## Rate limits'), '<h2 id="section/Rate-limits">Rate limits</h2>\n');
});

test('docs markdown: a text is cut into its guide sections at level-2 headings, never inside code', () => {
  const text =
    'Preface.\n\n## Errors\n\nSome.\n\n```\n## not a heading\n```\n\n### Detail\n\n## Paging\n\nMore.';
  assert.deepEqual(splitSections(text), [
    { id: 'section/Introduction', title: 'Introduction', markdown: 'Preface.\n' },
    {
      id: 'section/Errors',
      title: 'Errors',
      markdown: '## Errors\n\nSome.\n\n```\n## not a heading\n```\n\n### Detail\n',
    },
    { id: 'section/Paging', title: 'Paging', markdown: '## Paging\n\nMore.' },
  ]);
  assert.deepEqual(splitSections('## Only'), [{ id: 'section/Only', title: 'Only', markdown: '## Only' }]);
});

test('docs markdown: rows of a table headed "code" get error ids and are listed with their cells', () => {
  const table =
    '| code | status | meaning |\n|---|---|---|\n| `not_found` | 404 | No *such* pet. |\n| plain | 1 | x |';
  assert.match(renderMarkdown(table), /<tr id="error\/not_found">/);
  assert.doesNotMatch(renderMarkdown(table), /id="error\/plain"/);
  assert.doesNotMatch(renderMarkdown('| name |\n|---|\n| `x` |'), /id=/);
  assert.deepEqual(codeTableRows(table), [{ code: 'not_found', cells: ['404', 'No such pet.'] }]);
});

test('docs markdown: a paragraph opening with a bold "Deprecated" is marked as the notice', () => {
  assert.equal(
    renderMarkdown('**Deprecated: removed on 5 December 2030.** Use `GET /pets`.\n\nMore.'),
    '<p class="notice deprecated" role="note"><strong>Deprecated: removed on 5 December 2030.</strong> Use <code>GET /pets</code>.</p>\n<p>More.</p>\n',
  );
  assert.doesNotMatch(renderMarkdown('Not **Deprecated** here.'), /notice/);
});

test('docs markdown: plain text drops the markup and keeps the words', () => {
  assert.equal(
    plainText('## Title\n\nSend `Authorization`, **always**:\n[docs](/x).'),
    'Title Send Authorization, always: docs.',
  );
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
  assert.match(html, /^<div class="table-wrap" tabindex="0"><table>/);
  assert.match(html, /<th class="align-right">status<\/th>/);
  assert.doesNotMatch(html, /style=/);
});

test('docs reference: every description is rendered, no $ref is left, int64 bounds keep their digits', () => {
  const referenceText = referenceJson();
  assert.doesNotMatch(referenceText, /"\$ref"/);
  assert.ok(referenceText.includes('"minimum":-9223372036854775808,"maximum":9223372036854775807'));
  const reference = JSON.parse(referenceText) as {
    info: { 'x-sections': { id: string; title: string; html: string }[] };
    'x-search': { kind: string; title: string; anchor: string }[];
    'x-client-operations': string[];
  };
  const sections = reference.info['x-sections'];
  assert.equal(sections[0]!.id, 'section/Introduction');
  assert.match(
    sections.find((section) => section.title === 'Authentication')!.html,
    /^<h2 id="section\/Authentication">/,
  );
  assert.match(
    sections.find((section) => section.title === 'Errors')!.html,
    /<tr id="error\/invalid_parameter">/,
  );
  assert.match(referenceText, /"title":"Pet"/);
  assert.deepEqual(reference['x-client-operations'], ['listPets', 'pets', 'createPet', 'getPet']);
});

test('docs reference: the search index holds guides, operations, parameters, fields, schemas and error codes', () => {
  const { 'x-search': index } = JSON.parse(referenceJson()) as {
    'x-search': { kind: string; title: string; context: string; anchor: string }[];
  };
  const find = (kind: string, title: string) =>
    index.find((entry) => entry.kind === kind && entry.title === title);
  assert.equal(find('guide', 'Rate limits')?.anchor, 'section/Rate-limits');
  assert.deepEqual(find('operation', 'List pets'), {
    ...find('operation', 'List pets'),
    context: 'GET /v1/pets',
    anchor: 'tag/Pets/operation/listPets',
  });
  assert.equal(find('parameter', 'Idempotency-Key')?.anchor, 'tag/Pets/operation/createPet');
  assert.equal(find('field', 'categoryId')?.anchor !== undefined, true);
  assert.ok(index.some((entry) => entry.kind === 'field' && entry.anchor === 'schema/Pet/categoryId'));
  assert.equal(find('schema', 'NewPet')?.anchor, 'schema/NewPet');
  assert.deepEqual(find('error', 'idempotency_key_reused'), {
    ...find('error', 'idempotency_key_reused'),
    context: 'Error · 422',
    anchor: 'error/idempotency_key_reused',
  });
  assert.equal(
    index.filter((entry) => entry.kind === 'error').length,
    Object.keys(ERROR_STATUS).length,
    'every code of the catalogue',
  );
});
