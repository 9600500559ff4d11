/**
 * The hostile-input catalogue: requests an attacker or a broken client sends, each with the exact answer
 * the service gives. Every case is sent as raw bytes on its own connection, and none may write anything.
 * Decisions the catalogue records (see docs/reliability.md): a doubled header that carries meaning is
 * refused, a field named twice in a body is refused, transfer and content codings other than chunked and
 * identity are refused, and a body on GET is ignored.
 */

export interface HostileContext {
  /** An enterprise key with limits no case reaches. */
  key: string;
  /** A key that was revoked. */
  revokedKey: string;
  /** A production key (ps_live_…), refused by this development deployment. */
  liveKey: string;
  /** A cursor issued for `GET /v1/pets?limit=1` (no status filter). */
  cursor: string;
}

export interface HostileCase {
  /** What is attacked and how. */
  name: string;
  bytes: (context: HostileContext) => string | Buffer;
  status: number;
  /** The Error code; undefined for a 2xx. */
  code?: string;
  /** The Error's param, when it names one. */
  param?: string;
}

interface RequestParts {
  key?: string | null;
  headers?: string[];
  body?: string | Buffer;
  contentType?: string | null;
}

/** One HTTP/1.1 request, framed with Content-Length, closing the connection after the answer. */
function request(method: string, target: string, parts: RequestParts, context: HostileContext): Buffer {
  const key = parts.key === undefined ? context.key : parts.key;
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: petstore.test', 'Connection: close'];
  if (key !== null) lines.push(`Authorization: Bearer ${key}`);
  if (parts.body !== undefined) {
    const contentType = parts.contentType === undefined ? 'application/json' : parts.contentType;
    if (contentType !== null) lines.push(`Content-Type: ${contentType}`);
    lines.push(`Content-Length: ${Buffer.byteLength(parts.body)}`);
  }
  lines.push(...(parts.headers ?? []));
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return parts.body === undefined ? head : Buffer.concat([head, Buffer.from(parts.body)]);
}

const get =
  (target: string, parts: RequestParts = {}) =>
  (context: HostileContext) =>
    request('GET', target, parts, context);
const post =
  (body: string | Buffer, parts: RequestParts = {}) =>
  (context: HostileContext) =>
    request('POST', '/v1/pets', { ...parts, body }, context);
const raw = (text: string) => () => text;

const VALID = '{"name":"Rex","categoryId":1}';

/** Well-formed keys the service never issued, sent by some cases (and searched for in the logs). */
export const FAKE_KEYS = {
  unknown: `ps_test_unknown_${'u'.repeat(35)}`,
  second: `ps_test_secondkey${'s'.repeat(34)}`,
  requestId: `ps_test_requestid${'r'.repeat(34)}`,
};

/** The cursor with one character of its middle changed. */
function tamper(cursor: string): string {
  const at = Math.floor(cursor.length / 2);
  return `${cursor.slice(0, at)}${cursor[at] === 'A' ? 'B' : 'A'}${cursor.slice(at + 1)}`;
}
const badId = (id: string): HostileCase => ({
  name: `GET /v1/pets/${id} → 400 invalid_parameter`,
  bytes: get(`/v1/pets/${id}`),
  status: 400,
  code: 'invalid_parameter',
  param: 'petId',
});
const badBody = (body: string, code: string, why: string, param?: string): HostileCase => ({
  name: `POST /v1/pets with ${why} → 400 ${code}`,
  bytes: post(body),
  status: 400,
  code,
  param,
});
const badQuery = (query: string, code: string, param: string): HostileCase => ({
  name: `GET /v1/pets?${query} → 400 ${code}`,
  bytes: get(`/v1/pets?${query}`),
  status: 400,
  code,
  param,
});

export const HOSTILE_CASES: HostileCase[] = [
  // ---- identifiers ----
  ...[
    'abc',
    '-0',
    '01',
    '1.0',
    '1e3',
    '+1',
    '%201',
    '0x10',
    '9223372036854775808',
    '-9223372036854775809',
    '99999999999999999999999',
    'NaN',
    'Infinity',
    'null',
    '%5B%5D',
    '%7B%7D',
    "1'--",
    '1%20OR%201%3D1',
    '%D9%A1',
    '%EF%BC%91',
    '%00',
    '1%00',
    '%C0%AE',
    '1;x=1',
    '%ZZ',
    '%',
    '1%2F2',
  ].map(badId),
  {
    name: 'GET /v1/pets/9223372036854775807 (the largest id) → 404 not_found',
    bytes: get('/v1/pets/9223372036854775807'),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'GET /v1/pets/-9223372036854775808 (the smallest id) → 404 not_found',
    bytes: get('/v1/pets/-9223372036854775808'),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'GET /v1/pets/..%2F..%2Fetc%2Fpasswd → 400 invalid_parameter',
    bytes: get('/v1/pets/..%2F..%2Fetc%2Fpasswd'),
    status: 400,
    code: 'invalid_parameter',
    param: 'petId',
  },

  // ---- bodies ----
  badBody('not json', 'invalid_json', 'text that is not JSON'),
  badBody('{"name":"Rex","categoryId":1', 'invalid_json', 'truncated JSON'),
  badBody(`${VALID} x`, 'invalid_json', 'garbage after the JSON value'),
  badBody(`${VALID}${VALID}`, 'invalid_json', 'two JSON objects'),
  badBody("{'name':'Rex','categoryId':1}", 'invalid_json', 'single quotes'),
  badBody('{"name":"Rex",/*x*/"categoryId":1}', 'invalid_json', 'a comment'),
  badBody('{"name":"Rex","categoryId":NaN}', 'invalid_json', 'NaN'),
  badBody('\ufeff{"name":"Rex","categoryId":1}', 'invalid_json', 'a byte order mark'),
  badBody('   ', 'invalid_json', 'only whitespace'),
  badBody('[]', 'invalid_body', 'an array'),
  badBody('"Rex"', 'invalid_body', 'a string'),
  badBody('null', 'invalid_body', 'null'),
  badBody('1', 'invalid_body', 'a number'),
  badBody('{}', 'invalid_body', 'an empty object', 'name'),
  badBody('{"categoryId":1}', 'invalid_body', 'no name', 'name'),
  badBody('{"name":"Rex"}', 'invalid_body', 'no categoryId', 'categoryId'),
  badBody('{"name":1,"categoryId":1}', 'invalid_body', 'a number as name', 'name'),
  badBody('{"name":"","categoryId":1}', 'invalid_body', 'an empty name', 'name'),
  badBody('{"name":"   ","categoryId":1}', 'invalid_body', 'a blank name', 'name'),
  badBody(`{"name":"${'x'.repeat(201)}","categoryId":1}`, 'invalid_body', 'a 201-character name', 'name'),
  badBody('{"name":"a\\u0000b","categoryId":1}', 'invalid_body', 'a NUL in the name', 'name'),
  badBody('{"name":"a\\u001bb","categoryId":1}', 'invalid_body', 'an escape character in the name', 'name'),
  badBody('{"name":"\\ud800","categoryId":1}', 'invalid_body', 'a lone surrogate in the name', 'name'),
  badBody('{"name":"Rex","categoryId":"1"}', 'invalid_body', 'categoryId as a string', 'categoryId'),
  badBody('{"name":"Rex","categoryId":1.5}', 'invalid_body', 'a fractional categoryId', 'categoryId'),
  badBody(
    '{"name":"Rex","categoryId":9223372036854775808}',
    'invalid_body',
    'categoryId above int64',
    'categoryId',
  ),
  badBody(
    '{"name":"Rex","categoryId":-9223372036854775809}',
    'invalid_body',
    'categoryId below int64',
    'categoryId',
  ),
  badBody('{"name":"Rex","categoryId":1e999}', 'invalid_body', 'categoryId 1e999', 'categoryId'),
  badBody('{"name":"Rex","categoryId":true}', 'invalid_body', 'categoryId true', 'categoryId'),
  badBody('{"name":"Rex","categoryId":null}', 'invalid_body', 'categoryId null', 'categoryId'),
  badBody('{"name":"Rex","categoryId":1,"status":"adopted"}', 'invalid_body', 'an unknown status', 'status'),
  badBody('{"name":"Rex","categoryId":1,"status":null}', 'invalid_body', 'status null', 'status'),
  badBody(
    '{"name":"Rex","categoryId":1,"status":"AVAILABLE"}',
    'invalid_body',
    'status in capitals',
    'status',
  ),
  badBody('{"name":"Rex","categoryId":1,"id":7}', 'invalid_body', 'an id chosen by the client', 'id'),
  badBody(
    '{"name":"Rex","categoryId":1,"__proto__":{"admin":true}}',
    'invalid_body',
    'a __proto__ field',
    '__proto__',
  ),
  badBody(
    '{"name":"Rex","categoryId":1,"constructor":{"prototype":{"admin":true}}}',
    'invalid_body',
    'a constructor field',
    'constructor',
  ),
  badBody('{"name":"Rex","name":"Max","categoryId":1}', 'invalid_body', 'name given twice', 'name'),
  badBody(
    '{"name":"Rex","categoryId":1,"categ\\u006fryId":2}',
    'invalid_body',
    'categoryId given twice, once escaped',
    'categoryId',
  ),
  badBody(`${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'invalid_json', '10,000 nested arrays'),
  {
    name: 'POST /v1/pets with a body that is not UTF-8 → 400 invalid_json',
    bytes: post(Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'POST /v1/pets with an overlong UTF-8 encoding in the name → 400 invalid_json',
    bytes: post(
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('","categoryId":1}')]),
    ),
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'POST /v1/pets with a body of 64 KiB + 1 → 413 payload_too_large',
    bytes: post(`{"name":"${'x'.repeat(64 * 1024)}"}`),
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'POST /v1/pets with an empty body → 400 invalid_json',
    bytes: post(''),
    status: 400,
    code: 'invalid_json',
  },

  // ---- media types and codings ----
  {
    name: 'POST /v1/pets as text/plain → 415 unsupported_media_type',
    bytes: post(VALID, { contentType: 'text/plain' }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'POST /v1/pets as a form → 415 unsupported_media_type',
    bytes: post('name=Rex&categoryId=1', { contentType: 'application/x-www-form-urlencoded' }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'POST /v1/pets as multipart → 415 unsupported_media_type',
    bytes: post(VALID, { contentType: 'multipart/form-data; boundary=x' }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'POST /v1/pets in latin1 → 415 unsupported_media_type',
    bytes: post(VALID, { contentType: 'application/json; charset=latin1' }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'POST /v1/pets without Content-Type → 415 unsupported_media_type',
    bytes: post(VALID, { contentType: null }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'POST /v1/pets with two Content-Type headers → 415 unsupported_media_type',
    bytes: post(VALID, { headers: ['Content-Type: application/json'] }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'POST /v1/pets with Content-Encoding: gzip → 415 unsupported_media_type',
    bytes: post(VALID, { headers: ['Content-Encoding: gzip'] }),
    status: 415,
    code: 'unsupported_media_type',
    param: 'Content-Encoding',
  },
  {
    name: 'POST /v1/pets with Content-Encoding: br → 415 unsupported_media_type',
    bytes: post(VALID, { headers: ['Content-Encoding: br'] }),
    status: 415,
    code: 'unsupported_media_type',
    param: 'Content-Encoding',
  },

  // ---- authentication ----
  {
    name: 'GET /v1/pets without Authorization → 401 unauthorized',
    bytes: get('/v1/pets', { key: null }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'GET /v1/pets with a revoked key → 401 unauthorized',
    bytes: (c) => get('/v1/pets', { key: c.revokedKey })(c),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'GET /v1/pets with a production key in development → 401 unauthorized',
    bytes: (c) => get('/v1/pets', { key: c.liveKey })(c),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'GET /v1/pets with a well-formed unknown key → 401 unauthorized',
    bytes: get('/v1/pets', { key: FAKE_KEYS.unknown }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'GET /v1/pets with a key cut short → 401 unauthorized',
    bytes: (c) => get('/v1/pets', { key: c.key.slice(0, -1) })(c),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'GET /v1/pets with Basic credentials → 401 unauthorized',
    bytes: get('/v1/pets', { key: null, headers: ['Authorization: Basic dXNlcjpwYXNz'] }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'GET /v1/pets with "Bearer" and no key → 401 unauthorized',
    bytes: get('/v1/pets', { key: null, headers: ['Authorization: Bearer'] }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'GET /v1/pets with the key twice in one header → 401 unauthorized',
    bytes: (c) => get('/v1/pets', { key: `${c.key} ${c.key}` })(c),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'GET /v1/pets with two Authorization headers (a valid key first) → 401 unauthorized',
    bytes: (c) => get('/v1/pets', { headers: [`Authorization: Bearer ${FAKE_KEYS.second}`] })(c),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'GET /v1/pets with a 10 KB Authorization header → 401 unauthorized',
    bytes: get('/v1/pets', { key: 'x'.repeat(10_000) }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'GET /v1/pets with the key in the query string → 401 unauthorized (keys go in Authorization)',
    bytes: (c) => get(`/v1/pets?api_key=${c.key}`, { key: null })(c),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'GET /v1/pets?token=<key> with a valid key → 400 invalid_parameter (the query key is not logged)',
    bytes: (c) => get(`/v1/pets?token=${c.key}`)(c),
    status: 400,
    code: 'invalid_parameter',
    param: 'token',
  },
  {
    name: 'GET /v1/pets?q=Bearer+<key> → 400 invalid_parameter (a key-shaped value is not logged)',
    bytes: (c) => get(`/v1/pets?q=Bearer+${encodeURIComponent(c.revokedKey)}`)(c),
    status: 400,
    code: 'invalid_parameter',
    param: 'q',
  },
  {
    name: 'GET /v1/pets/<key> → 400 invalid_parameter (a key in the path is not logged)',
    bytes: (c) => get(`/v1/pets/${c.liveKey}`)(c),
    status: 400,
    code: 'invalid_parameter',
    param: 'petId',
  },
  {
    name: 'GET /v1/categories without a key → 401 unauthorized (unknown /v1 paths are guarded)',
    bytes: get('/v1/categories', { key: null }),
    status: 401,
    code: 'unauthorized',
  },

  // ---- query strings and cursors ----
  badQuery('limit=0', 'invalid_parameter', 'limit'),
  badQuery('limit=101', 'invalid_parameter', 'limit'),
  badQuery('limit=-1', 'invalid_parameter', 'limit'),
  badQuery('limit=1.5', 'invalid_parameter', 'limit'),
  badQuery('limit=01', 'invalid_parameter', 'limit'),
  badQuery('limit=', 'invalid_parameter', 'limit'),
  badQuery('limit=1e1', 'invalid_parameter', 'limit'),
  badQuery('limit=%FF', 'invalid_parameter', 'limit'),
  badQuery('limit=1&limit=2', 'invalid_parameter', 'limit'),
  badQuery('status=AVAILABLE', 'invalid_parameter', 'status'),
  badQuery('status=', 'invalid_parameter', 'status'),
  badQuery('status[]=sold', 'invalid_parameter', 'status[]'),
  badQuery('stauts=sold', 'invalid_parameter', 'stauts'),
  badQuery('__proto__=1', 'invalid_parameter', '__proto__'),
  badQuery('constructor=1', 'invalid_parameter', 'constructor'),
  badQuery('cursor=', 'invalid_cursor', 'cursor'),
  badQuery('cursor=not-a-cursor', 'invalid_cursor', 'cursor'),
  badQuery('cursor=%00', 'invalid_cursor', 'cursor'),
  badQuery(`cursor=${'A'.repeat(500)}`, 'invalid_cursor', 'cursor'),
  {
    name: 'GET /v1/pets?cursor=<tampered> → 400 invalid_cursor',
    bytes: (c) => get(`/v1/pets?limit=1&cursor=${tamper(c.cursor)}`)(c),
    status: 400,
    code: 'invalid_cursor',
    param: 'cursor',
  },
  {
    name: 'GET /v1/pets?status=sold&cursor=<issued without a filter> → 400 invalid_cursor',
    bytes: (c) => get(`/v1/pets?limit=1&status=sold&cursor=${c.cursor}`)(c),
    status: 400,
    code: 'invalid_cursor',
    param: 'cursor',
  },

  // ---- headers ----
  {
    name: 'POST /v1/pets with an empty Idempotency-Key → 400 invalid_parameter',
    bytes: post(VALID, { headers: ['Idempotency-Key: '] }),
    status: 400,
    code: 'invalid_parameter',
    param: 'Idempotency-Key',
  },
  {
    name: 'POST /v1/pets with a 256-character Idempotency-Key → 400 invalid_parameter',
    bytes: post(VALID, { headers: [`Idempotency-Key: ${'k'.repeat(256)}`] }),
    status: 400,
    code: 'invalid_parameter',
    param: 'Idempotency-Key',
  },
  {
    name: 'POST /v1/pets with a non-ASCII Idempotency-Key → 400 invalid_parameter',
    bytes: post(VALID, { headers: ['Idempotency-Key: cl\u00e9'] }),
    status: 400,
    code: 'invalid_parameter',
    param: 'Idempotency-Key',
  },
  {
    name: 'POST /v1/pets with two Idempotency-Key headers → 400 invalid_parameter',
    bytes: post(VALID, { headers: ['Idempotency-Key: a', 'Idempotency-Key: b'] }),
    status: 400,
    code: 'invalid_parameter',
    param: 'Idempotency-Key',
  },
  {
    name: 'POST /v1/pets with an invalid body and a valid Idempotency-Key → 400, nothing remembered',
    bytes: post('{"name":"","categoryId":1}', { headers: ['Idempotency-Key: hostile-1'] }),
    status: 400,
    code: 'invalid_body',
    param: 'name',
  },

  // ---- methods and paths ----
  ...['PUT', 'PATCH', 'DELETE', 'TRACE', 'QUERY'].map((method): HostileCase => ({
    name: `${method} /v1/pets with a NewPet body → 405 method_not_allowed`,
    bytes: (c) => request(method, '/v1/pets', { body: VALID }, c),
    status: 405,
    code: 'method_not_allowed',
  })),
  {
    name: 'OPTIONS /v1/pets with a NewPet body → 204, the public preflight answer; the body is never read',
    bytes: (c) => request('OPTIONS', '/v1/pets', { body: VALID }, c),
    status: 204,
  },
  {
    name: 'POST /v1/pets/1 → 405 method_not_allowed',
    bytes: (c) => request('POST', '/v1/pets/1', { body: VALID }, c),
    status: 405,
    code: 'method_not_allowed',
  },
  {
    name: 'POST /v1/store/orders → 405 method_not_allowed',
    bytes: (c) => request('POST', '/v1/store/orders', { body: '{}' }, c),
    status: 405,
    code: 'method_not_allowed',
  },
  {
    name: 'GET /v1/store/orders → 501 not_implemented',
    bytes: get('/v1/store/orders'),
    status: 501,
    code: 'not_implemented',
  },
  {
    name: 'GET /v1/categories with a key → 404 not_found',
    bytes: get('/v1/categories'),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'GET /V1/pets → 404 not_found (paths are case-sensitive)',
    bytes: get('/V1/pets'),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'GET /v1/pets/1/owner → 404 not_found',
    bytes: get('/v1/pets/1/owner'),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'GET /docs/assets/..%2F..%2F..%2Fpackage.json → 404 not_found (assets are looked up by name)',
    bytes: get('/docs/assets/..%2F..%2F..%2Fpackage.json', { key: null }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'GET /docs/assets/__proto__ → 404 not_found',
    bytes: get('/docs/assets/__proto__', { key: null }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'GET /docs/assets/app.js%00.css → 404 not_found',
    bytes: get('/docs/assets/app.js%00.css', { key: null }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'POST /docs with a body → 405 method_not_allowed',
    bytes: (c) =>
      request('POST', '/docs', { key: null, body: '<script>alert(1)</script>', contentType: 'text/html' }, c),
    status: 405,
    code: 'method_not_allowed',
  },
  {
    name: 'GET /../../etc/passwd → 404 not_found',
    bytes: get('/../../etc/passwd', { key: null }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'GET /v1/%2e%2e/healthz → 404 not_found',
    bytes: get('/v1/%2e%2e/healthz'),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'GET http://elsewhere.example/v1/store/orders (absolute form) → 501 not_implemented, routed by its path',
    bytes: get('http://elsewhere.example/v1/store/orders'),
    status: 501,
    code: 'not_implemented',
  },
  {
    name: 'GET /v1/pets with a JSON body (ignored on GET) → 200',
    bytes: (c) => request('GET', '/v1/pets?limit=1', { body: VALID }, c),
    status: 200,
  },
  {
    name: 'GET /v1/pets with Expect: nonsense → 200 (unknown expectations are ignored)',
    bytes: get('/v1/pets?limit=1', { headers: ['Expect: nonsense'] }),
    status: 200,
  },
  {
    name: 'GET /v1/pets with a key-shaped X-Request-Id → 200 under a new request id',
    bytes: get('/v1/pets?limit=1', { headers: [`X-Request-Id: ${FAKE_KEYS.requestId}`] }),
    status: 200,
  },

  // ---- framing and smuggling shapes ----
  {
    name: 'POST with Content-Length and Transfer-Encoding → 400 invalid_request',
    bytes: raw(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nPOST /v1/pets HTTP/1.1\r\n\r\n`,
    ),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'POST with two Content-Length values → 400 invalid_request',
    bytes: raw(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 29\r\n\r\n${VALID}`,
    ),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'POST with Content-Length: 2, 2 → 400 invalid_request',
    bytes: raw(`POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 2, 2\r\n\r\n{}`),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'POST with Content-Length: +29 → 400 invalid_request',
    bytes: raw(`POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: +29\r\n\r\n${VALID}`),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'POST with Transfer-Encoding: chunked, identity → 400 invalid_request',
    bytes: raw('POST /v1/pets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n'),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'POST with Transfer-Encoding: xchunked → 400 invalid_request',
    bytes: raw('POST /v1/pets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n'),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: "POST with a tab before Transfer-Encoding's colon → 400 invalid_request",
    bytes: raw('POST /v1/pets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding\t: chunked\r\n\r\n0\r\n\r\n'),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'POST with a chunk size that overflows → 400 invalid_request',
    bytes: raw(
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFF\r\n',
    ),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'POST with a chunk missing its CRLF → 400 invalid_request',
    bytes: (c) =>
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${c.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1d\r\n${VALID}0\r\n\r\n`,
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'GET with an obsolete folded header → 400 invalid_request',
    bytes: raw('GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-A: a\r\n  b\r\n\r\n'),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'GET with a header name containing a space → 400 invalid_request',
    bytes: raw('GET /v1/pets HTTP/1.1\r\nHost: x\r\nX A: b\r\n\r\n'),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'GET with a bare CR in a header → 400 invalid_request',
    bytes: raw('GET /v1/pets HTTP/1.1\r\nHost: x\rX-A: b\r\n\r\n'),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'GET with a lower-case method → 400 invalid_request',
    bytes: raw('get /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'GET with HTTP/1.2 → 400 invalid_request',
    bytes: raw('GET /v1/pets HTTP/1.2\r\nHost: x\r\n\r\n'),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'GET without Host → 400 invalid_request',
    bytes: raw('GET /v1/pets HTTP/1.1\r\n\r\n'),
    status: 400,
    code: 'invalid_request',
    param: 'Host',
  },
  {
    name: 'GET with Host "a b" → 400 invalid_request',
    bytes: raw('GET /v1/pets HTTP/1.1\r\nHost: a b\r\n\r\n'),
    status: 400,
    code: 'invalid_request',
    param: 'Host',
  },
  {
    name: 'GET with a request target of 9 KiB → 414 uri_too_long',
    bytes: get(`/v1/pets?status=${'a'.repeat(9 * 1024)}`),
    status: 414,
    code: 'uri_too_long',
  },
  {
    name: 'GET with 17 KiB of headers → 431 headers_too_large',
    bytes: get('/v1/pets', { headers: [`X-Big: ${'a'.repeat(17 * 1024)}`] }),
    status: 431,
    code: 'headers_too_large',
  },
  {
    name: 'CONNECT → 400 invalid_request',
    bytes: raw('CONNECT petstore.test:443 HTTP/1.1\r\nHost: petstore.test:443\r\n\r\n'),
    status: 400,
    code: 'invalid_request',
  },
];
