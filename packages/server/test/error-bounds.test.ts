import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { binaryString } from './text-arbitraries.ts';
import { MESSAGE_MAX_LENGTH, PARAM_MAX_LENGTH, printable, QUOTED_MAX_LENGTH } from '../src/errors.ts';
import { makeTestApp, type TestApp, type TestResponse } from './harness.ts';
import { assertUnknownRouteResponse } from './openapi-validator.ts';
import { type ErrorJson, errorOf } from './ratelimit-http-support.ts';

const codePoints = (text: string) => Array.from(text).length;

/**
 * The Error body's texts stay within the contract's bounds, cut with an ellipsis when they had to be,
 * and carry what the client sent with its unprintable characters escaped.
 */
function assertBounded(response: TestResponse, echoed: string): ErrorJson {
  const error = errorOf(response);
  assert.ok(codePoints(error.message) <= MESSAGE_MAX_LENGTH, `message of ${codePoints(error.message)}`);
  if (error.param !== undefined) {
    const escaped = printable(echoed);
    assert.ok(codePoints(error.param) <= PARAM_MAX_LENGTH, `param of ${codePoints(error.param)}`);
    if (codePoints(escaped) > PARAM_MAX_LENGTH) assert.ok(error.param.endsWith('…'), error.param);
    else assert.equal(error.param, escaped);
  }
  return error;
}

describe('Error bodies never grow with what the client sent', () => {
  let app: TestApp;
  before(async () => {
    app = await makeTestApp();
  });
  after(() => app.close());

  it('GET /v1/pets → 400 invalid_parameter naming an unknown query parameter of 5,000 characters in 200, its message quoting 200', async () => {
    // ASCII so the request target stays under the 8 KiB limit (a longer one is 414).
    const name = `x${'y'.repeat(4_999)}`;
    const response = await app.request({ url: `/v1/pets?${encodeURIComponent(name)}=1` });
    assert.equal(response.status, 400);
    const error = assertBounded(response, name);
    assert.equal(codePoints(error.param!), PARAM_MAX_LENGTH);
    assert.ok(error.message.includes(`"x${'y'.repeat(QUOTED_MAX_LENGTH - 2)}…"`), error.message);
    assert.ok(codePoints(error.message) < QUOTED_MAX_LENGTH + 100, error.message);
  });

  it('POST /v1/pets → 400 invalid_body naming an unknown field of 20,000 characters in 200', async () => {
    const field = `🐕${'é'.repeat(19_999)}`;
    const response = await app.request({
      method: 'POST',
      url: '/v1/pets',
      body: { name: 'Rex', categoryId: 1, [field]: true },
    });
    assert.equal(response.status, 400);
    assert.equal(errorOf(response).code, 'invalid_body');
    assertBounded(response, field);
  });

  it('GET /v1/<8,000 characters> → 404 not_found whose message quotes at most 1,000 characters', async () => {
    const url = `/v1/${'a'.repeat(8_000)}`;
    const response = await app.request({ url, unchecked: true });
    assertUnknownRouteResponse({ method: 'GET', path: url, ...response });
    assertBounded(response, '');
  });

  it('GET /v1/pets → 400 with an Error body within the contract for generated query parameter names', async () => {
    await fc.assert(
      fc.asyncProperty(
        binaryString({ maxLength: 1_500 }).filter((name) => !['limit', 'status', 'cursor'].includes(name)),
        async (name) => {
          app.clock.advance(61_000);
          const response = await app.request({ url: `/v1/pets?${encodeURIComponent(name)}=1` });
          assert.equal(response.status, 400);
          assertBounded(response, name);
        },
      ),
      { numRuns: 150 },
    );
  });
});
