import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { parseJson } from '@petstore/json';
import { ALL_METHODS } from '../../src/routes/table.ts';
import { concretePath, makeTestApp, type TestApp, type TestResponse, toJson } from '../harness.ts';
import { findRoute } from '../openapi-routes.ts';
import { assertUnknownRouteResponse } from '../openapi-validator.ts';
import {
  objectFor,
  objectViolations,
  parametersOf,
  type Parameter,
  satisfies,
  schemaOf,
  valueFor,
} from './from-contract.ts';

const RUNS = { numRuns: 300 };
const NEW_PET = schemaOf('NewPet');

/** What a case could have written. */
async function fingerprint(app: TestApp): Promise<string> {
  const pets = await app.storage.pets.count();
  return `${pets}`;
}

function errorOf(response: TestResponse): { code: string; param?: string } {
  return response.json() as { code: string; param?: string };
}

/** Query text for one parameter value: canonical for integers, as is for strings, or any text at all. */
function queryText(parameter: Parameter): fc.Arbitrary<string> {
  const schema = parameter.schema;
  const typed =
    schema.type === 'integer'
      ? fc.oneof(
          valueFor(schema).map((value) => (typeof value === 'bigint' ? String(value) : String(value))),
          fc.constantFrom('01', '+1', '1.0', '1e1', ' 1', ''),
        )
      : valueFor(schema).filter((value): value is string => typeof value === 'string');
  return fc.oneof(typed, fc.string({ maxLength: 6 })).filter((text) => text.isWellFormed());
}

/** Whether the text of a query value satisfies its parameter's schema (integers only in canonical form). */
function queryValueSatisfies(parameter: Parameter, text: string): boolean {
  if (parameter.schema.type !== 'integer') return satisfies(parameter.schema, text);
  return /^(?:0|-?[1-9]\d*)$/.test(text) && satisfies(parameter.schema, BigInt(text));
}

describe('hostile inputs generated from the contract (fast-check)', () => {
  let app: TestApp;
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

  before(async () => {
    app = await makeTestApp();
  });
  after(() => app.close());

  it('POST /v1/pets with NewPet-shaped bodies from the contract → 201 exactly when the schema holds, else 400 invalid_body naming an offending field, and nothing written', async () => {
    await fc.assert(
      fc.asyncProperty(objectFor(NEW_PET), async (candidate) => {
        const text = toJson(candidate);
        const sent = parseJson(text) as Record<string, unknown>;
        const offending = objectViolations(NEW_PET, sent);
        const before = await fingerprint(app);
        const response = await app.request({ method: 'POST', url: '/v1/pets', body: text });
        if (offending.length === 0) {
          assert.equal(response.status, 201, `${text} → ${response.body}`);
          assert.equal(Number(await fingerprint(app)), Number(before) + 1);
          return;
        }
        assert.equal(response.status, 400, `${text} → ${response.body}`);
        const error = errorOf(response);
        assert.equal(error.code, 'invalid_body');
        assert.ok(
          offending.includes(error.param!),
          `${text}: param ${error.param} is not one of ${offending.join(', ')}`,
        );
        assert.equal(await fingerprint(app), before, 'nothing was written');
      }),
      RUNS,
    );
  });

  it("GET /v1/pets with query strings from the contract's parameters (and unknown or repeated ones) → 200 exactly when they hold, else the 400 naming one", async () => {
    const parameters = parametersOf('/pets', 'get');
    const names = parameters.map((parameter) => parameter.name);
    const pair = fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .constantFrom(...parameters)
          .chain((p) => queryText(p).map((text) => [p.name, text] as const)),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(
          fc.constantFrom('__proto__', 'constructor', 'Limit', 'stauts', 'api_key'),
          fc.string({ maxLength: 4 }),
        ),
      },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(pair, { maxLength: 4 }), async (pairs) => {
        const query = pairs
          .map(([name, text]) => `${encodeURIComponent(name)}=${encodeURIComponent(text)}`)
          .join('&');
        const response = await app.request({ url: `/v1/pets?${query}` });
        const counts = new Map<string, number>();
        for (const [name] of pairs) counts.set(name, (counts.get(name) ?? 0) + 1);
        const offending = pairs
          .filter(([name, text]) => {
            const parameter = parameters.find((candidate) => candidate.name === name);
            return !parameter || counts.get(name)! > 1 || !queryValueSatisfies(parameter, text);
          })
          .map(([name]) => name);
        const cursorGiven = pairs.some(([name]) => name === 'cursor');
        if (offending.length > 0) {
          assert.equal(response.status, 400, `?${query} → ${response.body}`);
          const named = errorOf(response).param!;
          assert.ok(offending.includes(named), `?${query}: ${response.body}`);
          // A parameter may declare its own code (a malformed cursor is invalid_cursor).
          const declared = parameters.find((candidate) => candidate.name === named) as
            (Parameter & { 'x-error-code'?: string }) | undefined;
          const repeated = counts.get(named)! > 1;
          const expected = (!repeated && declared?.['x-error-code']) || 'invalid_parameter';
          assert.equal(errorOf(response).code, expected, `?${query} → ${response.body}`);
        } else if (cursorGiven) {
          assert.equal(response.status, 400, `?${query} → ${response.body}`);
          assert.equal(errorOf(response).code, 'invalid_cursor', 'a cursor the service did not issue');
        } else {
          assert.equal(response.status, 200, `?${query} → ${response.body}`);
          assert.ok(names.length > 0);
        }
      }),
      RUNS,
    );
  });

  it('every path of the contract × every method, with generated bodies and content types → the declared answer or 405/404, never a 5xx, nothing written', async () => {
    // The public contract's paths: the management API's (which take an access token, and whose writes
    // write) meet every method in route-table.test.ts and their own suites (manage-*.test.ts).
    const paths = [...new Set(app.app.routeTable.map((route) => concretePath(route.url)))].filter(
      (path) => findRoute(path) && !path.startsWith('/manage/'),
    );
    const body = fc.oneof(
      objectFor(NEW_PET).map((candidate) => toJson(candidate)),
      fc.string({ maxLength: 40 }),
      fc.constant(undefined),
    );
    const contentType = fc.constantFrom(
      'application/json',
      'text/plain',
      'application/json; charset=utf-16',
      undefined,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.constantFrom(...ALL_METHODS),
        body,
        contentType,
        async (path, method, payload, type) => {
          if (method === 'POST' && path === '/v1/pets') return;
          const before = await fingerprint(app);
          const headers: Record<string, string> = type === undefined ? {} : { 'content-type': type };
          const response = await app.request({ method, url: path, body: payload, headers, unchecked: true });
          assert.ok(
            response.status < 500 || (path === '/v1/store/orders' && response.status === 501),
            `${method} ${path} → ${response.status} ${response.body}`,
          );
          const declared = app.app.routeTable.some(
            (route) => route.method === method && concretePath(route.url) === path,
          );
          // OPTIONS on every known path is the CORS preflight (204), declared once for all; a body
          // it cannot read is refused like on any route (400/415 with an Error body).
          if (method === 'OPTIONS') {
            const refused =
              [400, 415].includes(response.status) && (payload !== undefined || type !== undefined);
            assert.ok(
              response.status === 204 || refused,
              `${method} ${path} → ${response.status} ${response.body}`,
            );
            if (refused) assert.ok(errorOf(response).code, response.body);
          } else if (
            !declared &&
            !(
              method === 'HEAD' &&
              app.app.routeTable.some((route) => route.method === 'GET' && concretePath(route.url) === path)
            )
          ) {
            assertUnknownRouteResponse({ method, path, ...response });
          }
          assert.equal(await fingerprint(app), before, 'nothing was written');
        },
      ),
      RUNS,
    );
  });

  it('after every generated request above → Object.prototype is untouched and {} has no inherited surprises', () => {
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), prototypeBefore);
    const probe: Record<string, unknown> = {};
    for (const name of ['admin', 'isAdmin', 'polluted', 'x', 'name', 'categoryId'])
      assert.equal(probe[name], undefined);
  });
});
