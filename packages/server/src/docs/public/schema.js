// JSON Schema (OpenAPI 3.1) as readable tables: fields, types, required marks and constraints. The
// server resolved every `$ref`; a component schema keeps its name as `title` and links to its entry in
// the Schemas section.

import { h, markdown } from './dom.js';
import { stringifyPretty } from './json.js';

const MAX_DEPTH = 4;

const show = (value) => (typeof value === 'string' ? value : stringifyPretty(value));

export const schemaAnchor = (name) => `schema/${name}`;

/** `integer (int64)`, `array of Pet`, `PetStatus (string)`: as text. */
export function typeLabel(schemaNode) {
  const schema = schemaNode ?? {};
  if (schema.type === 'array') return `array of ${typeLabel(schema.items)}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  const base = schema.format ? `${type} (${schema.format})` : type;
  return schema.title ? `${schema.title} (${base})` : base;
}

/** The same as a node: a named schema links to its entry. */
export function typeNode(schemaNode) {
  const schema = schemaNode ?? {};
  if (schema.type === 'array') return h('span', {}, 'array of ', typeNode(schema.items));
  const label = typeLabel({ ...schema, title: undefined });
  if (!schema.title) return h('span', {}, label);
  return h('span', {}, h('a', { href: `#${schemaAnchor(schema.title)}` }, schema.title), ` ${label}`);
}

/** `1 to 100`, `at least 1 character`, `at most 100 items`. */
function range(low, high, unit) {
  const units = (count) => (show(count) === '1' ? unit.replace(/s$/, '') : unit);
  if (low !== undefined && high !== undefined) return `${show(low)} to ${show(high)}${units(high)}`;
  if (low !== undefined) return `at least ${show(low)}${units(low)}`;
  return high !== undefined ? `at most ${show(high)}${units(high)}` : undefined;
}

/** Constraint chips for a schema: allowed values, ranges, lengths, pattern, default, example. */
export function constraints(schema) {
  const chips = [];
  const chip = (label, value) =>
    chips.push(h('span', { class: 'constraint' }, `${label} `, h('code', {}, value)));
  if (schema.enum) {
    const values = schema.enum.map((value) => h('code', {}, show(value)));
    chips.push(
      h('span', { class: 'constraint enum' }, 'one of ', values.flatMap((code) => [code, ' ']).slice(0, -1)),
    );
  }
  if (schema.const !== undefined) chip('always', show(schema.const));
  const numbers = range(schema.minimum, schema.maximum, '');
  if (numbers) chips.push(h('span', { class: 'constraint' }, numbers));
  const length = range(schema.minLength, schema.maxLength, ' characters');
  if (length) chips.push(h('span', { class: 'constraint' }, length));
  const items = range(schema.minItems, schema.maxItems, ' items');
  if (items) chips.push(h('span', { class: 'constraint' }, items));
  if (schema.pattern) chip('pattern', schema.pattern);
  if (schema.default !== undefined) chip('default', show(schema.default));
  if (schema.example !== undefined) chip('example', show(schema.example));
  return chips.length ? h('div', { class: 'constraints' }, chips) : null;
}

function nested(node, depth, options) {
  const schema = node ?? {};
  const inner = schema.type === 'array' ? schema.items : node;
  const complex =
    inner?.type === 'object' && (inner.properties || typeof inner.additionalProperties === 'object');
  // A named schema is described once, in the Schemas section; elsewhere its name links there.
  if (!complex || depth >= MAX_DEPTH || (inner.title && !options.expandNamed)) return null;
  return renderSchema(inner, depth + 1, { ...options, expandNamed: false });
}

function propertyRow(name, property = {}, required, depth, options) {
  return h(
    'tr',
    { id: options.fieldIds && depth === 0 ? `${options.fieldIds}/${name}` : null },
    h(
      'td',
      { class: 'field' },
      h('code', {}, name),
      required ? h('span', { class: 'required' }, 'required') : null,
    ),
    h('td', { class: 'type' }, typeNode(property)),
    h('td', {}, markdown(property), constraints(property), nested(property, depth, options)),
  );
}

/** A field table for people: `Field`, `Type`, `Description`. */
export function fieldTable(rows, firstColumn = 'Field') {
  return h(
    'div',
    { class: 'table-wrap', tabindex: '0' },
    h(
      'table',
      { class: 'fields' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, firstColumn),
          h('th', { scope: 'col' }, 'Type'),
          h('th', { scope: 'col' }, 'Description'),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

/**
 * A schema as a block: its type, then a field table for objects or its constraints for the rest.
 * `expandNamed`: show a named schema's fields here (the Schemas section, request bodies); `fieldIds`:
 * give each field row an id under this prefix.
 */
export function renderSchema(schemaNode, depth = 0, options = { expandNamed: true }) {
  const schema = schemaNode ?? {};
  const parts = [h('div', { class: 'schema-type' }, h('span', { class: 'type' }, typeNode(schema)))];
  if (depth === 0 && options.description !== false) parts.push(markdown(schema));
  if (schema.type === 'array') {
    parts.push(constraints({ minItems: schema.minItems, maxItems: schema.maxItems }));
    parts.push(nested(schema, depth, options));
  } else if (schema.properties && (options.expandNamed || !schema.title || depth > 0)) {
    const required = new Set(schema.required ?? []);
    const rows = Object.entries(schema.properties).map(([name, property]) =>
      propertyRow(name, property, required.has(name), depth, options),
    );
    parts.push(fieldTable(rows));
    if (schema.additionalProperties === false)
      parts.push(h('p', { class: 'note' }, 'No other fields are allowed.'));
  } else if (typeof schema.additionalProperties === 'object') {
    parts.push(h('p', { class: 'note' }, 'A map from names to ', typeNode(schema.additionalProperties), '.'));
  } else if (!schema.properties) {
    parts.push(constraints(schema));
  }
  return h('div', { class: depth === 0 ? 'schema' : 'schema nested' }, parts);
}
