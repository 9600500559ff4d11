import MarkdownIt from 'markdown-it';

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

// Headings get ids to link to; column alignment becomes a class, since the page's CSP refuses inline
// styles; tables scroll inside a wrapper on narrow screens.
md.core.ruler.push('petstore_attributes', (state) => {
  state.tokens.forEach((token, index) => {
    if (token.type === 'heading_open') {
      const text = state.tokens[index + 1]?.children?.map((child) => child.content).join('') ?? '';
      token.attrSet('id', headingId(text));
    }
    const align = /^text-align:(left|right|center)$/.exec(token.attrGet('style') ?? '')?.[1];
    if (align) {
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
      token.attrSet('class', `align-${align}`);
    }
  });
});
md.renderer.rules.table_open = () => '<div class="table-wrap"><table>\n';
md.renderer.rules.table_close = () => '</table></div>\n';

export interface Heading {
  level: number;
  text: string;
  id: string;
}

/** A block of Markdown as HTML. */
export function renderMarkdown(text: string): string {
  return md.render(text);
}

/** One line of Markdown as inline HTML (no paragraph around it). */
export function renderInline(text: string): string {
  return md.renderInline(text);
}

/** The headings of a Markdown text, for a table of contents. */
export function markdownHeadings(text: string): Heading[] {
  const tokens = md.parse(text, {});
  return tokens.flatMap((token, index) => {
    if (token.type !== 'heading_open') return [];
    const content = tokens[index + 1]?.children?.map((child) => child.content).join('') ?? '';
    return [{ level: Number(token.tag.slice(1)), text: content, id: headingId(content) }];
  });
}
