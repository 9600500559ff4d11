import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJson } from '@petstore/json';
import MiniSearch from 'minisearch';
import { referenceJson, siteReferenceJson } from '../src/docs/reference.ts';

/** What the page's search module exports (plain JavaScript served to browsers, run here as it is). */
interface SearchEngine {
  createIndex(engine: typeof MiniSearch, entries: unknown[]): unknown;
  search(index: unknown, query: string, limit?: number): { kind: string; title: string; anchor: string }[];
}
const ENGINE = '../src/docs/public/search-engine.js';
const engine = (await import(ENGINE)) as SearchEngine;

const indexOf = (reference: string) =>
  engine.createIndex(MiniSearch, (parseJson(reference) as { 'x-search': unknown[] })['x-search']);

/** Queries readers type, and the entry that must come first: `kind: title`. */
const RELEVANCE: [query: string, first: string][] = [
  ['ratelimit', 'guide: Rate limits'],
  ['ratelimt', 'guide: Rate limits'],
  ['rate limits', 'guide: Rate limits'],
  ['retry after', 'guide: Rate limits'],
  ['api key', 'guide: Authentication'],
  ['bearer', 'guide: Authentication'],
  ['create pet', 'operation: Add a pet'],
  ['add a pet', 'operation: Add a pet'],
  ['list pets', 'operation: List pets'],
  ['get a pet', 'operation: Get a pet (deprecated)'],
  ['deprecated', 'operation: Get a pet (deprecated)'],
  ['store orders', 'operation: List store orders (not available yet)'],
  ['cursor', 'parameter: cursor'],
  ['paging', 'guide: Paging'],
  ['categry', 'schema: CategoryId'],
  ['int64', 'schema: CategoryId'],
  ['64-bit', 'guide: 64-bit integers'],
  ['idempotency_key_reused', 'error: idempotency_key_reused'],
  ['401', 'error: unauthorized'],
  ['not found', 'error: not_found'],
  ['cors', 'guide: Cross-origin requests (CORS)'],
  ['errors', 'guide: Errors'],
  ['request id', 'field: requestId'],
];

describe("docs search relevance (MiniSearch with the page's options, over the reference the server builds)", () => {
  const service = indexOf(referenceJson());
  for (const [query, first] of RELEVANCE) {
    it(`"${query}" → ${first} first`, () => {
      const [top] = engine.search(service, query);
      assert.equal(top && `${top.kind}: ${top.title}`, first);
    });
  }

  it('"create pet" → "Add a pet" above the Pet schema', () => {
    const titles = engine.search(service, 'create pet').map((entry) => `${entry.kind}: ${entry.title}`);
    assert.ok(titles.indexOf('operation: Add a pet') < titles.indexOf('schema: Pet'), titles.join(' | '));
  });

  it('"api key" → the authentication section above the API reference page', () => {
    const titles = engine.search(service, 'api key').map((entry) => entry.title);
    assert.ok(titles.indexOf('Authentication') < titles.indexOf('API reference page'), titles.join(' | '));
  });

  it('a blank query, or one of stop words only, finds nothing; an unknown word finds nothing', () => {
    for (const query of ['', '   ', 'the a of', 'zyxwvut'])
      assert.deepEqual(engine.search(service, query), []);
  });

  it("a project's site edition: the same answers for its operations, and no operator endpoint", () => {
    const site = indexOf(siteReferenceJson());
    assert.equal(engine.search(site, 'create pet')[0]?.title, 'Add a pet');
    assert.equal(engine.search(site, 'api key')[0]?.title, 'Authentication');
    for (const query of ['health', 'metrics', 'readiness', 'openapi', 'API reference page']) {
      const found = engine.search(site, query).map((entry) => entry.anchor);
      assert.deepEqual(
        found.filter((anchor) => anchor.startsWith('tag/') && !/^tag\/(Pets|Store)\//.test(anchor)),
        [],
        query,
      );
    }
  });
});
