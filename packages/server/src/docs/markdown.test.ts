import assert from 'node:assert/strict';
import { test } from 'node:test';

interface MarkdownModule {
  renderMarkdown(text: string, options?: { headingOffset?: number; headingIds?: boolean }): string;
  renderInline(text: string): string;
  markdownHeadings(text: string): { level: number; text: string; id: string }[];
}
interface JsonModule {
  parseLossless(text: string): unknown;
  stringifyPretty(value: unknown): string;
  formatBody(text: string): string;
}

// The page's browser modules are plain JavaScript; they are loaded here as they are served.
const markdown = (await import(new URL('./public/markdown.js', import.meta.url).href)) as MarkdownModule;
const json = (await import(new URL('./public/json.js', import.meta.url).href)) as JsonModule;

test('docs markdown: headings get section ids and shifted levels', () => {
  assert.equal(
    markdown.renderMarkdown('## Rate limits', { headingIds: true }),
    '<h2 id="section/Rate-limits">Rate limits</h2>',
  );
  assert.equal(markdown.renderMarkdown('# Title', { headingOffset: 3 }), '<h4>Title</h4>');
  assert.deepEqual(markdown.markdownHeadings('intro\n\n## Errors\n\n```\n## not a heading\n```'), [
    { level: 2, text: 'Errors', id: 'section/Errors' },
  ]);
});

test('docs markdown: paragraphs, inline code, emphasis and links', () => {
  assert.equal(
    markdown.renderMarkdown(
      'Send `Authorization: Bearer <API_KEY>`, **always**.\nSee [docs](/docs#tag/Pets).',
    ),
    '<p>Send <code>Authorization: Bearer &lt;API_KEY&gt;</code>, <strong>always</strong>.\nSee <a href="/docs#tag/Pets">docs</a>.</p>',
  );
  assert.equal(
    markdown.renderInline('keys `ps_live_…` and snake_case_words'),
    'keys <code>ps_live_…</code> and snake_case_words',
  );
  assert.equal(markdown.renderInline('*one* and _two_'), '<em>one</em> and <em>two</em>');
});

test('docs markdown: HTML is escaped and unsafe link targets are dropped', () => {
  assert.equal(markdown.renderInline('<script>alert(1)</script>'), '&lt;script&gt;alert(1)&lt;/script&gt;');
  assert.equal(markdown.renderInline('[x](javascript:alert(1))'), '[x](javascript:alert(1))');
  assert.equal(markdown.renderInline('[x](JavaScript:alert)'), 'x');
  assert.equal(
    markdown.renderInline('[x](https://a.example/?q="1")'),
    '<a href="https://a.example/?q=&quot;1&quot;">x</a>',
  );
  assert.equal(
    markdown.renderInline('a "quote" & \'apostrophe\''),
    'a &quot;quote&quot; &amp; &#39;apostrophe&#39;',
  );
});

test('docs markdown: pipe tables, with pipes inside code spans kept', () => {
  const html = markdown.renderMarkdown('| code | status |\n|---|--:|\n| `a|b` | 400 |\n| `x` | 401 |');
  assert.equal(
    html,
    '<div class="table-wrap"><table><thead><tr><th>code</th><th class="align-right">status</th></tr></thead>' +
      '<tbody><tr><td><code>a|b</code></td><td class="align-right">400</td></tr>' +
      '<tr><td><code>x</code></td><td class="align-right">401</td></tr></tbody></table></div>',
  );
});

test('docs markdown: lists, nested lists, fenced code and quotes', () => {
  assert.equal(
    markdown.renderMarkdown('- one\n- two\n  - inner'),
    '<ul><li>one</li><li>two\n<ul><li>inner</li></ul></li></ul>',
  );
  assert.equal(markdown.renderMarkdown('3. c\n4. d'), '<ol start="3"><li>c</li><li>d</li></ol>');
  assert.equal(
    markdown.renderMarkdown('```json\n{"a": "<b>"}\n```'),
    '<pre><code class="language-json">{&quot;a&quot;: &quot;&lt;b&gt;&quot;}</code></pre>',
  );
  assert.equal(markdown.renderMarkdown('> note'), '<blockquote><p>note</p></blockquote>');
});

test('docs json: 64-bit integers survive parsing and pretty printing', () => {
  const text = '{"id":9223372036854775807,"min":-9223372036854775808,"small":42,"ratio":0.5,"list":[]}';
  const value = json.parseLossless(text) as Record<string, unknown>;
  assert.equal(value.id, 9223372036854775807n);
  assert.equal(value.small, 42);
  assert.equal(
    json.stringifyPretty(value),
    '{\n  "id": 9223372036854775807,\n  "min": -9223372036854775808,\n  "small": 42,\n  "ratio": 0.5,\n  "list": []\n}',
  );
  assert.equal(json.formatBody('not json'), 'not json');
  assert.equal(json.formatBody(''), '');
});
