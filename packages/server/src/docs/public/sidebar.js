// The navigation column: the guide, each tag with its operations, the schemas. On narrow screens it
// is a drawer opened by the Menu button; everywhere it marks the part of the page in view.

import { h } from './dom.js';
import { schemaAnchor } from './schema.js';

const link = (href, ...children) => h('a', { href: `#${href}`, 'data-target': href }, children);

export function renderSidebar(spec, groups) {
  const sections = spec.info?.['x-sections'] ?? [];
  const schemas = Object.keys(spec.components?.schemas ?? {});
  return [
    h('h2', {}, 'Guide'),
    h(
      'ul',
      {},
      sections.map((section) => h('li', {}, link(section.id, section.title))),
    ),
    groups.map(({ tag, operations }) => [
      h('h2', {}, link(`tag/${tag.name}`, tag.name)),
      h(
        'ul',
        { class: 'operations' },
        operations.map((op) =>
          h(
            'li',
            { class: op.operation.deprecated ? 'is-deprecated' : null },
            link(
              op.anchor,
              h('span', { class: `method method-${op.method}` }, op.method.toUpperCase()),
              h('span', { class: 'nav-summary' }, op.operation.summary ?? op.operationId),
            ),
          ),
        ),
      ),
    ]),
    schemas.length
      ? [
          h('h2', {}, link('schemas', 'Schemas')),
          h(
            'ul',
            {},
            schemas.map((name) => h('li', {}, link(schemaAnchor(name), h('code', {}, name)))),
          ),
        ]
      : null,
  ];
}

const NARROW = matchMedia('(max-width: 899px)');

/** The Menu button opens and closes the drawer; following a link, a tap beside it or Escape closes it. */
export function wireMenu(sidebar, button) {
  const set = (open) => {
    sidebar.classList.toggle('is-open', open);
    button.setAttribute('aria-expanded', String(open));
    sidebar.inert = NARROW.matches && !open;
    // The drawer is still sliding in: scrolling to the link would move the page under it.
    if (open) sidebar.querySelector('a')?.focus({ preventScroll: true });
  };
  set(false);
  button.addEventListener('click', () => set(!sidebar.classList.contains('is-open')));
  sidebar.addEventListener('click', (event) => {
    if (event.target.closest('a') && NARROW.matches) set(false);
  });
  document.addEventListener('pointerdown', (event) => {
    const outside = !sidebar.contains(event.target) && !button.contains(event.target);
    if (outside && sidebar.classList.contains('is-open')) set(false);
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && sidebar.classList.contains('is-open')) {
      set(false);
      button.focus();
    }
  });
  NARROW.addEventListener('change', () => set(false));
}

/** Marks the navigation link of the last section whose top has scrolled under the top bar (`aria-current`). */
export function trackPosition(sidebar) {
  const links = [...sidebar.querySelectorAll('a[data-target]')]
    .map((link) => ({ link, target: document.getElementById(link.dataset.target) }))
    .filter(({ target }) => target);
  let current;
  let scheduled = false;
  const update = () => {
    scheduled = false;
    const line = document.querySelector('.topbar').getBoundingClientRect().bottom + 48;
    const passed =
      links.filter(({ target }) => target.getBoundingClientRect().top <= line).at(-1) ?? links[0];
    if (passed?.link === current) return;
    current?.removeAttribute('aria-current');
    current = passed?.link;
    current?.setAttribute('aria-current', 'location');
  };
  addEventListener(
    'scroll',
    () => {
      if (!scheduled) requestAnimationFrame(update);
      scheduled = true;
    },
    { passive: true },
  );
  update();
}
