// Building DOM nodes: text is always set as text. The one HTML sink is `markdown()`, fed only by the
// escaping renderer and, where the browser has Trusted Types, through the page's only policy.

import { renderInline, renderMarkdown } from './markdown.js';

const policy = globalThis.trustedTypes?.createPolicy('petstore-markdown', { createHTML: (html) => html });

/** `h('a', { href, class: 'x', onclick }, 'text', child)`: an element with attributes and children. */
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...nodes(children));
  return element;
}

function nodes(children) {
  return children
    .flat(Number.POSITIVE_INFINITY)
    .filter((child) => child !== undefined && child !== null && child !== false && child !== '')
    .map((child) => (child instanceof Node ? child : String(child)));
}

function html(element, markup) {
  element.innerHTML = policy ? policy.createHTML(markup) : markup;
  return element;
}

/** A block of Markdown rendered into a `div.markdown`. */
export function markdown(text, options = {}) {
  return html(h('div', { class: `markdown ${options.class ?? ''}`.trim() }), renderMarkdown(text, options));
}

/** One line of inline Markdown rendered into a `span`. */
export function markdownInline(text) {
  return html(h('span', { class: 'markdown-inline' }), renderInline(String(text ?? '')));
}
