import { createHash } from 'node:crypto';
import { stringifyJson } from '@petstore/json';
import { exactContract } from '../openapi/contract.ts';
import { dereference, type JsonNode } from '../openapi/dereference.ts';
import { markdownHeadings, renderInline, renderMarkdown } from './markdown.ts';

/**
 * The docs page's data: the contract with every `$ref` resolved (component schemas keep their name
 * as `title`) and every `description` rendered to HTML beside it (`descriptionHtml`); the servers'
 * descriptions inline, the introduction's headings listed for the table of contents. Built once at
 * start-up; integers keep their digits.
 */
/**
 * `inline`: a server or a response, shown on one line, so its own description is inline HTML;
 * `entries`: the list of servers or the map of responses, whose entries are `inline`.
 */
type Mode = 'block' | 'entries' | 'inline';

function withHtml(node: unknown, mode: Mode, seen: WeakMap<object, unknown>): unknown {
  if (node === null || typeof node !== 'object') return node;
  if (seen.has(node)) return seen.get(node);
  const childMode = (key: string): Mode =>
    mode === 'entries' ? 'inline' : key === 'servers' || key === 'responses' ? 'entries' : 'block';
  if (Array.isArray(node)) {
    const copy: unknown[] = [];
    seen.set(node, copy);
    copy.push(...node.map((item) => withHtml(item, childMode(''), seen)));
    return copy;
  }
  const copy: JsonNode = {};
  seen.set(node, copy);
  for (const [key, value] of Object.entries(node)) {
    copy[key] = withHtml(value, childMode(key), seen);
    if (key === 'description' && typeof value === 'string' && mode !== 'entries') {
      copy.descriptionHtml = mode === 'inline' ? renderInline(value) : renderMarkdown(value);
    }
  }
  return copy;
}

function build(): string {
  const document = withHtml(dereference(exactContract), 'block', new WeakMap()) as JsonNode;
  const info = document.info as JsonNode;
  info['x-headings'] = markdownHeadings(String(info.description ?? ''));
  return stringifyJson(document);
}

export const referenceJson: string = build();
export const referenceEtag = `"${createHash('sha256').update(referenceJson).digest('base64url').slice(0, 22)}"`;
