import type { Page } from 'playwright-core';

declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  querySelectorAll(selector: string): Iterable<DomElement>;
  createTreeWalker(root: unknown, show: number): { nextNode(): DomText | null };
  body: unknown;
  createRange(): {
    selectNodeContents(node: unknown): void;
    setStart(node: unknown, offset: number): void;
    setEnd(node: unknown, offset: number): void;
    getClientRects(): Iterable<Rect>;
  };
};
declare const window: {
  innerWidth: number;
  getComputedStyle(element: DomElement, pseudo?: string): Record<string, string>;
};
interface Rect {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
interface DomElement {
  tagName: string;
  id: string;
  className: string;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): Rect;
  contains(other: unknown): boolean;
  getAttribute(name: string): string | null;
  closest(selector: string): DomElement | null;
  querySelector(selector: string): DomElement | null;
  parentElement: DomElement | null;
}
interface DomText {
  textContent: string | null;
  parentElement: DomElement | null;
}

/**
 * What is wrong with the page's layout at the current viewport: the document wider than the window,
 * a scroller whose content is wider than itself (a hidden column; a table may scroll inside its card
 * when its first column stays in view), text cut off by its box, a token broken across lines though
 * its box could hold it, a control lying over text that is not its own, a radio button or check box
 * not beside the text of its label, and a cell's label drawn though it is empty (a stray ":"). Empty
 * when the layout is right.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  // A page reached by a form's submission may still be fetching its style sheet when the element the
  // caller waited for is in the document; its layout is judged only once everything has loaded.
  await page.waitForLoadState('load');
  return page.evaluate(() => {
    const problems: string[] = [];
    const name = (element: DomElement) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${
        element.className ? `.${String(element.className).trim().split(/\s+/).join('.')}` : ''
      } "${(element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    const { scrollWidth } = document.documentElement;
    if (scrollWidth > window.innerWidth) {
      problems.push(`the document is ${scrollWidth} px wide in a ${window.innerWidth} px window`);
    }
    const hidden = (element: DomElement) => element.closest('.visually-hidden, [hidden]') !== null;
    for (const element of document.querySelectorAll('body *')) {
      if (hidden(element) || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName)) continue;
      const style = window.getComputedStyle(element);
      const clips = ['hidden', 'clip', 'auto', 'scroll'].includes(style.overflowX ?? '');
      if (clips && element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0) {
        // A table may scroll inside its card, if its first column stays in view while it does.
        if (` ${element.className} `.includes(' table-wrap ') && style.overflowX === 'auto') {
          const first = element.querySelector('tbody tr > :first-child');
          const sticky = first && window.getComputedStyle(first).position === 'sticky';
          if (sticky) continue;
          problems.push(`${name(element)} scrolls without keeping its first column in view`);
          continue;
        }
        problems.push(
          `${name(element)} cuts off ${element.scrollWidth - element.clientWidth} px of its content`,
        );
      }
    }
    // A token (text without white space: an address, a name, a date, an id) drawn on two lines although
    // its box could hold it on one.
    const tokens = document.createTreeWalker(document.body, 4);
    for (let node = tokens.nextNode(); node; node = tokens.nextNode()) {
      const owner = node.parentElement;
      const text = node.textContent ?? '';
      if (!owner || !text.trim() || hidden(owner) || owner.closest('pre, textarea, svg')) continue;
      let block = owner;
      while ((window.getComputedStyle(block).display ?? '').startsWith('inline') && block.parentElement)
        block = block.parentElement;
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
        const lines = new Set(rects.map((rect) => Math.round(rect.top)));
        if (lines.size < 2) continue;
        const width = rects.reduce((sum, rect) => sum + rect.width, 0);
        if (width <= block.clientWidth)
          problems.push(`"${match[0].slice(0, 40)}" is broken across lines in ${name(block)}`);
      }
    }
    const texts: { rect: Rect; owner: DomElement }[] = [];
    const walker = document.createTreeWalker(document.body, 4);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const owner = node.parentElement;
      if (!owner || !node.textContent?.trim() || hidden(owner)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects())
        if (rect.width > 0 && rect.height > 0) texts.push({ rect, owner });
    }
    const controls = 'a, button, input, select, textarea, summary, [tabindex="0"]';
    for (const control of document.querySelectorAll(controls)) {
      if (hidden(control)) continue;
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      for (const { rect, owner } of texts) {
        if (control.contains(owner) || owner.contains(control)) continue;
        const overlapX = Math.min(box.right, rect.right) - Math.max(box.left, rect.left);
        const overlapY = Math.min(box.bottom, rect.bottom) - Math.max(box.top, rect.top);
        if (overlapX > 1 && overlapY > 1) {
          problems.push(`${name(control)} covers the text of ${name(owner)}`);
          break;
        }
      }
    }
    // A radio button or check box sits on the line of its label's first words, before them.
    for (const control of document.querySelectorAll(
      'label input[type="radio"], label input[type="checkbox"]',
    )) {
      const label = control.closest('label')!;
      if (hidden(label)) continue;
      const box = control.getBoundingClientRect();
      const words = document.createTreeWalker(label, 4);
      let first: Rect | undefined;
      for (let node = words.nextNode(); node && !first; node = words.nextNode()) {
        if (!node.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        first = [...range.getClientRects()].find((rect) => rect.width > 0);
      }
      if (first && (first.top >= box.bottom || first.bottom <= box.top || first.left < box.right))
        problems.push(`${name(label)}: its ${control.getAttribute('type')} is not beside its text`);
    }
    // A table cell shown as a labelled line (table.stacked on a phone) whose label is empty.
    for (const cell of document.querySelectorAll('[data-label]')) {
      if (hidden(cell) || (cell.getAttribute('data-label') ?? '').trim() !== '') continue;
      const before = window.getComputedStyle(cell, '::before');
      if (before.display !== 'none' && !['none', 'normal'].includes(before.content ?? 'none'))
        problems.push(`${name(cell)} shows a label with no name (${before.content})`);
    }
    return problems;
  });
}
