import type { Page } from 'playwright-core';

/**
 * Layout checks of a page as Chromium shows it now. The in-page code is a string: this program has no
 * DOM types, and the code runs in the page, not here.
 */

/** How many pixels the document is wider than the window (0 when nothing overflows sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate('Math.max(0, document.documentElement.scrollWidth - innerWidth)');
}

/**
 * Visible text that a control (button, select, input, textarea) is drawn over, in the window as it is
 * scrolled now: for each line box of text, clipped to the boxes of its scrolling ancestors, what is on
 * top every 6 px along it. Text under the fixed top bar, an open drawer or a dialog is left out (they
 * are meant to cover the page); a control's own text is not covered by it.
 */
export async function coveredText(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const CONTROL = 'button, select, input, textarea';
    const OVERLAY = '.topbar, .sidebar.is-open, dialog[open]';
    const clip = (rect, element) => {
      let box = { left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom };
      for (let node = element; node && node !== document.body; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const outer = node.getBoundingClientRect();
        box = {
          left: Math.max(box.left, outer.left + node.clientLeft),
          right: Math.min(box.right, outer.left + node.clientLeft + node.clientWidth),
          top: Math.max(box.top, outer.top + node.clientTop),
          bottom: Math.min(box.bottom, outer.top + node.clientTop + node.clientHeight),
        };
      }
      box.left = Math.max(box.left, 0);
      box.top = Math.max(box.top, 0);
      box.right = Math.min(box.right, innerWidth);
      box.bottom = Math.min(box.bottom, innerHeight);
      return box.right - box.left > 2 && box.bottom - box.top > 2 ? box : null;
    };
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (!text.textContent.trim()) continue;
      const parent = text.parentElement;
      if (!parent || parent.closest(CONTROL) || parent.closest(OVERLAY) || !parent.checkVisibility()) continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      for (const rect of range.getClientRects()) {
        const box = clip(rect, parent);
        if (!box) continue;
        const y = (box.top + box.bottom) / 2;
        for (let x = box.left + 1; x < box.right; x += 6) {
          const top = document.elementFromPoint(x, y);
          const control = top?.closest(CONTROL);
          if (control && !control.closest(OVERLAY) && !control.contains(text)) {
            found.push(
              (control.getAttribute('aria-label') || control.textContent.trim() || control.tagName) +
                ' covers "' + text.textContent.trim().slice(0, 40) + '" at ' + Math.round(x) + ',' + Math.round(y),
            );
            break;
          }
        }
      }
    }
    return found;
  })()`);
}

/** Copy buttons whose box overlaps the box of the code they copy (at any scroll position of that code). */
export async function copyButtonsOverCode(page: Page): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll('.code-block')]
    .filter((block) => block.checkVisibility())
    .flatMap((block) => {
      const button = block.querySelector('.copy-button').getBoundingClientRect();
      const pre = block.querySelector('pre').getBoundingClientRect();
      const apart = button.bottom <= pre.top || button.top >= pre.bottom ||
        button.right <= pre.left || button.left >= pre.right;
      return apart ? [] : [block.querySelector('.copy-button').getAttribute('aria-label')];
    })`);
}
