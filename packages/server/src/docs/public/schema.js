// JSON Schema (OpenAPI 3.1) as readable tables: fields, types, required marks and constraints. The
// server resolved every `$ref`; a component schema keeps its name as `title`.

import { h, markdown } from './dom.js';
import { stringifyPretty } from './json.js';

const MAX_DEPTH = 4;

const show = (value) => (typeof value === 'string' ? value : stringifyPretty(value));

/** `integer (int64)`, `array of Pet`, `PetStatus`… */
export function typeLabel(spec, schemaNode) {
  const schema = schemaNode ?? {};
  const name = schema.title;
  if (schema.type === 'array') return `array of ${typeLabel(spec, schema.items)}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  const base = schema.format ? `${type} (${schema.format})` : type;
  return name && (schema.type === 'object' || schema.enum) ? `${name} (${base})` : base;
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
  if (schema.enum)
    chips.push(
      h(
        'span',
        { class: 'constraint' },
        'one of ',
        schema.enum.map((value) => h('code', {}, show(value))),
      ),
    );
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

function nested(spec, node, depth) {
  const schema = node ?? {};
  const inner = schema.type === 'array' ? schema.items : node;
  const items = inner;
  const complex =
    items?.type === 'object' && (items.properties || typeof items.additionalProperties === 'object');
  return complex && depth < MAX_DEPTH ? renderSchema(spec, inner, depth + 1) : null;
}

function propertyRow(spec, name, propertyNode, required, depth) {
  const property = propertyNode ?? {};
  return h(
    'tr',
    {},
    h(
      'td',
      { class: 'field' },
      h('code', {}, name),
      required ? h('span', { class: 'required' }, 'required') : null,
    ),
    h('td', { class: 'type' }, typeLabel(spec, propertyNode)),
    h('td', {}, markdown(property), constraints(property), nested(spec, propertyNode, depth)),
  );
}

/** A schema as a block: description, then a field table for objects or a summary for the rest. */
export function renderSchema(spec, schemaNode, depth = 0) {
  const schema = schemaNode ?? {};
  const parts = [
    h('div', { class: 'schema-type' }, h('span', { class: 'type' }, typeLabel(spec, schemaNode))),
  ];
  if (depth === 0) parts.push(markdown(schema));
  if (schema.type === 'array') {
    parts.push(constraints({ minItems: schema.minItems, maxItems: schema.maxItems }));
    parts.push(nested(spec, schemaNode, depth));
  } else if (schema.properties) {
    const required = new Set(schema.required ?? []);
    const rows = Object.entries(schema.properties).map(([name, property]) =>
      propertyRow(spec, name, property, required.has(name), depth),
    );
    parts.push(
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'fields' },
          h('thead', {}, h('tr', {}, h('th', {}, 'Field'), h('th', {}, 'Type'), h('th', {}, 'Description'))),
          h('tbody', {}, rows),
        ),
      ),
    );
    if (schema.additionalProperties === false)
      parts.push(h('p', { class: 'note' }, 'No other fields are allowed.'));
  } else if (typeof schema.additionalProperties === 'object') {
    parts.push(
      h('p', { class: 'note' }, `A map from names to ${typeLabel(spec, schema.additionalProperties)}.`),
    );
  } else {
    parts.push(constraints(schema));
  }
  return h('div', { class: depth === 0 ? 'schema' : 'schema nested' }, parts);
}
