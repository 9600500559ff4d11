import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';

/**
 * The contract's descriptions as HTML, rendered once at start-up. Raw HTML in the Markdown is
 * escaped (`html: false`) and markdown-it refuses javascript:, vbscript:, file: and data: links, so
 * the page can insert the result as it is.
 */
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** The id a heading gets: `section/` and its text with spaces as dashes (the docs page links to these). */
export function headingId(text: string): string {
  return `section/${text.trim().replace(/\s+/g, '-')}`;
}

/** The id of an error code's row in the catalogue table: `error/invalid_body`. */
export function errorId(code: string): string {
  return `error/${code}`;
}

/** Inline content as text: `<code>` spans and emphasis flattened. */
const inlineText = (token: Token | undefined) =>
  token?.children?.map((child) => (child.type.endsWith('break') ? ' ' : child.content)).join('') ?? '';

/** The rows of the tables whose first column is headed `code`: the code and the other cells as text. */
export function codeTableRows(text: string): { code: string; cells: string[] }[] {
  const tokens = md.parse(text, {});
  const rows: { code: string; cells: string[] }[] = [];
  let codeTable = false;
  tokens.forEach((token, index) => {
    if (token.type === 'thead_open') codeTable = inlineText(tokens[index + 3]).trim() === 'code';
    if (!codeTable || token.type !== 'tr_open' || tokens[index + 1]?.type !== 'td_open') return;
    const cell = tokens[index + 2]?.children ?? [];
    if (cell.length !== 1 || cell[0]!.type !== 'code_inline') return;
    const cells: string[] = [];
    for (let at = index + 3; tokens[at] && tokens[at]!.type !== 'tr_close'; at++) {
      if (tokens[at]!.type === 'inline') cells.push(inlineText(tokens[at]));
    }
    rows.push({ code: cell[0]!.content, cells });
  });
  return rows;
}

/**
 * In a table whose first column is headed `code`, the row of each code gets the id `error/<code>`, so
 * search results and error bodies can link to it.
 */
function markCodeRows(tokens: Token[]): void {
  let codeTable = false;
  tokens.forEach((token, index) => {
    if (token.type === 'thead_open') codeTable = inlineText(tokens[index + 3]).trim() === 'code';
    if (!codeTable || token.type !== 'tr_open' || tokens[index + 1]?.type !== 'td_open') return;
    const cell = tokens[index + 2]?.children ?? [];
    if (cell.length === 1 && cell[0]!.type === 'code_inline') token.attrSet('id', errorId(cell[0]!.content));
  });
}

/** Each body cell names its column (`data-label`), so a phone can show a row as a labelled block. */
function labelCells(tokens: Token[]): void {
  let labels: string[] = [];
  let column = 0;
  tokens.forEach((token, index) => {
    if (token.type === 'thead_open') labels = [];
    if (token.type === 'th_open') labels.push(inlineText(tokens[index + 1]));
    if (token.type === 'tr_open') column = 0;
    if (token.type === 'td_open') token.attrSet('data-label', labels[column++] ?? '');
  });
}

/**
 * A paragraph that opens with a bold "Deprecated" is the operation's deprecation notice: it is marked
 * as one, so the page shows it as the notice instead of adding its own beside it.
 */
function markDeprecationNotices(tokens: Token[]): void {
  tokens.forEach((token, index) => {
    // markdown-it may open an inline run with an empty text token.
    const children = (tokens[index + 1]?.children ?? []).filter(
      (child) => child.type !== 'text' || child.content,
    );
    if (token.type !== 'paragraph_open' || children[0]?.type !== 'strong_open') return;
    if (!/^Deprecated\b/.test(children[1]?.content ?? '')) return;
    token.attrSet('class', 'notice deprecated');
    token.attrSet('role', 'note');
  });
}

// Headings get ids to link to; column alignment becomes a class, since the page's CSP refuses inline
// styles; tables scroll inside a wrapper on narrow screens.
md.core.ruler.push('petstore_attributes', (state) => {
  markCodeRows(state.tokens);
  labelCells(state.tokens);
  markDeprecationNotices(state.tokens);
  state.tokens.forEach((token, index) => {
    if (token.type === 'heading_open') token.attrSet('id', headingId(inlineText(state.tokens[index + 1])));
    const align = /^text-align:(left|right|center)$/.exec(token.attrGet('style') ?? '')?.[1];
    if (align) {
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
      token.attrSet('class', `align-${align}`);
    }
  });
});
md.renderer.rules.table_open = () => '<div class="table-wrap" tabindex="0"><table>\n';
md.renderer.rules.table_close = () => '</table></div>\n';

/** A block of Markdown as HTML. */
export function renderMarkdown(text: string): string {
  return md.render(text);
}

/** One line of Markdown as inline HTML (no paragraph around it). */
export function renderInline(text: string): string {
  return md.renderInline(text);
}

export interface MarkdownSection {
  /** The heading's id, or `section/Introduction` for the text before the first heading. */
  id: string;
  title: string;
  /** The section's Markdown, its heading included. */
  markdown: string;
}

/** A text cut at its level-2 headings (never inside code blocks): the preface, then one per heading. */
export function splitSections(text: string, prefaceTitle = 'Introduction'): MarkdownSection[] {
  const lines = text.split('\n');
  const tokens = md.parse(text, {});
  const starts = tokens.flatMap((token, index) =>
    token.type === 'heading_open' && token.tag === 'h2' && token.map
      ? [{ line: token.map[0], title: inlineText(tokens[index + 1]) }]
      : [],
  );
  const sections: MarkdownSection[] = [];
  const preface = lines.slice(0, starts[0]?.line ?? lines.length).join('\n');
  if (preface.trim()) sections.push({ id: headingId(prefaceTitle), title: prefaceTitle, markdown: preface });
  starts.forEach((start, index) => {
    const markdown = lines.slice(start.line, starts[index + 1]?.line ?? lines.length).join('\n');
    sections.push({ id: headingId(start.title), title: start.title, markdown });
  });
  return sections;
}

/** The words of a Markdown text without its markup, for the search index. */
export function plainText(text: string): string {
  const blocks = md.parse(text, {}).flatMap((token) => {
    if (token.type === 'inline') return [inlineText(token)];
    return token.type === 'fence' || token.type === 'code_block' ? [token.content] : [];
  });
  return blocks.join(' ').replace(/\s+/g, ' ').trim();
}
