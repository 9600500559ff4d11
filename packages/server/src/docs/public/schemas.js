// The Schemas section: every component schema with its fields (each field row linkable) beside an
// example of it.

import { copyable } from './copy.js';
import { h, markdown } from './dom.js';
import { stringifyPretty } from './json.js';
import { renderSchema, schemaAnchor } from './schema.js';

/** An example of a schema: its own, else one built from its fields' examples, enums and constants. */
export function schemaExample(schema = {}, depth = 0) {
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (depth > 4) return undefined;
  if (schema.type === 'array') {
    const item = schemaExample(schema.items, depth + 1);
    return item === undefined ? [] : [item];
  }
  if (schema.type === 'object' && schema.properties) {
    const entries = Object.entries(schema.properties)
      .map(([name, property]) => [name, schemaExample(property, depth + 1)])
      .filter(([, value]) => value !== undefined);
    return Object.fromEntries(entries);
  }
  return undefined;
}

function schemaRow(name, schema) {
  const example = schemaExample(schema);
  return h(
    'section',
    { class: 'row schema-entry', id: schemaAnchor(name) },
    h(
      'div',
      { class: 'prose-column' },
      h(
        'h3',
        {},
        h('code', {}, name),
        h('a', { class: 'anchor', href: `#${schemaAnchor(name)}`, 'aria-label': `Link to ${name}` }, '#'),
      ),
      markdown(schema),
      renderSchema(schema, 0, { expandNamed: true, description: false, fieldIds: schemaAnchor(name) }),
    ),
    example === undefined
      ? null
      : h(
          'aside',
          { class: 'examples-column', 'aria-label': `Example of ${name}` },
          h(
            'div',
            { class: 'sticky' },
            h(
              'div',
              { class: 'panel' },
              h('div', { class: 'panel-header' }, h('span', { class: 'panel-title' }, 'Example')),
              copyable(h('pre', {}, h('code', {}, stringifyPretty(example))), `example of ${name}`),
            ),
          ),
        ),
  );
}

export function renderSchemas(spec) {
  const schemas = Object.entries(spec.components?.schemas ?? {});
  if (schemas.length === 0) return [];
  return [
    h(
      'section',
      { class: 'row tag-row wide', id: 'schemas' },
      h(
        'div',
        { class: 'prose-column' },
        h('h2', { class: 'tag-title' }, 'Schemas'),
        h('p', {}, 'The shapes of the request and response bodies, field by field.'),
      ),
    ),
    ...schemas.map(([name, schema]) => schemaRow(name, schema)),
  ];
}
