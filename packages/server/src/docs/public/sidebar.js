// The navigation column: sections of the introduction, then each tag with its operations.

import { h } from './dom.js';

const link = (href, ...children) => h('a', { href: `#${href}` }, children);

export function renderSidebar(spec, groups) {
  const sections = (spec.info?.['x-headings'] ?? []).filter((heading) => heading.level === 2);
  if (spec.servers?.length) sections.push({ id: 'section/Servers', text: 'Servers' });
  if (spec.components?.securitySchemes)
    sections.push({ id: 'section/Security-schemes', text: 'Security schemes' });
  return [
    h(
      'div',
      { class: 'brand' },
      h('a', { href: '#' }, spec.info?.title ?? 'API reference'),
      h('span', { class: 'muted' }, ` v${spec.info?.version ?? ''}`),
    ),
    h('h2', {}, 'Introduction'),
    h(
      'ul',
      {},
      sections.map((section) => h('li', {}, link(section.id, section.text))),
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
  ];
}
