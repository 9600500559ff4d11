// Copy buttons for code blocks. The clipboard API needs a secure context; elsewhere the text is
// selected so the reader can copy it with the keyboard.

import { h } from './dom.js';

async function copy(pre, button) {
  const text = pre.textContent ?? '';
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    const range = document.createRange();
    range.selectNodeContents(pre);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
    button.textContent = 'Selected: press Ctrl+C';
  }
  setTimeout(() => {
    button.textContent = 'Copy';
  }, 2_000);
}

/** A `pre` in a wrapper with a Copy button; `label` names what is copied for screen readers. */
export function copyable(pre, label = 'code') {
  // A block that scrolls sideways must be reachable with the keyboard.
  pre.tabIndex = 0;
  const button = h(
    'button',
    { type: 'button', class: 'copy-button', 'aria-label': `Copy the ${label}` },
    'Copy',
  );
  button.addEventListener('click', () => copy(pre, button));
  return h('div', { class: 'code-block' }, button, pre);
}

/** Gives every `pre` under `root` that has none yet a Copy button (code blocks in descriptions). */
export function addCopyButtons(root) {
  for (const pre of root.querySelectorAll('.markdown pre')) {
    if (pre.parentElement?.classList.contains('code-block')) continue;
    const [parent, next] = [pre.parentNode, pre.nextSibling];
    parent.insertBefore(copyable(pre), next);
  }
}
