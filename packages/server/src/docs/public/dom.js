// Building DOM nodes: text is always set as text. The one HTML sink is `markdown()`, fed only with
// the descriptions the server rendered from the contract (raw HTML escaped there) and, where the
// browser has Trusted Types, through the page's only policy.

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

/** Replaces an element's children; like `h`, absent children (null, undefined, false, '') are skipped. */
export function setChildren(element, ...children) {
  element.replaceChildren(...nodes(children));
}

function nodes(children) {
  return children
    .flat(Number.POSITIVE_INFINITY)
    .filter((child) => child !== undefined && child !== null && child !== false && child !== '')
    .map((child) => (child instanceof Node ? child : String(child)));
}

/** HTML the server rendered from the contract, in an element of the given tag and class. */
export function html(tag, className, markup) {
  const element = h(tag, { class: className });
  element.innerHTML = policy ? policy.createHTML(markup) : markup;
  return element;
}

/** A node's rendered description (`descriptionHtml`) in a `div.markdown`, or nothing. */
export function markdown(node) {
  return node?.descriptionHtml ? html('div', 'markdown', node.descriptionHtml) : null;
}

/** A server's or a response's one-line description, rendered inline, in a `span`. */
export function markdownInline(node) {
  return html('span', 'markdown-inline', node?.descriptionHtml ?? '');
}

let ids = 0;
/** A document-unique id with a readable prefix. */
export const uniqueId = (prefix) => `${prefix}-${++ids}`;
