import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyError, type FastifyRequest } from 'fastify';
import {
  GET_PET_DEPRECATION,
  hashKey,
  openDatabase,
  parsePetId,
  type PetRow,
  readCursor,
  signCursor,
  STATUSES,
  toPet,
} from './common.ts';

/**
 * The Pet Store API as a team would write it with Fastify 5, @fastify/rate-limit and better-sqlite3:
 * bearer keys looked up by SHA-256, a per-key limit per minute with X-RateLimit-* headers, the
 * contract's Error body, durable inserts, cursor paging. A peer to measure the project against.
 *
 * Environment: DATABASE_PATH (required), PORT (default 3000), HOST (127.0.0.1), LOG_LEVEL (unset:
 * no request log; `info`: Fastify's request log on standard output), CURSOR_SECRET.
 */
const { DATABASE_PATH, PORT = '3000', HOST = '127.0.0.1', LOG_LEVEL } = process.env;
if (!DATABASE_PATH) throw new Error('DATABASE_PATH is required');
const cursorSecret = process.env.CURSOR_SECRET ?? 'peer cursor secret';

interface PeerKey {
  id: string;
  perMinute: number;
}

const db = openDatabase(DATABASE_PATH);
const findKey = db.prepare<[string], PeerKey>(
  'SELECT key_hash AS id, per_minute AS perMinute FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL',
);
const COLUMNS = 'id, name, category_id AS categoryId, status';
const listAll = db.prepare<[number, number], PetRow>(
  `SELECT ${COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`,
);
const listByStatus = db.prepare<[string, number, number], PetRow>(
  `SELECT ${COLUMNS} FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?`,
);
const getOne = db.prepare<[bigint], PetRow>(`SELECT ${COLUMNS} FROM pets WHERE id = ?`);
const insert = db.prepare<[string, number, string | null], { id: number }>(
  'INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING id',
);

class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const pet = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'categoryId'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string', enum: STATUSES },
  },
} as const;

const newPet = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'categoryId'],
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^(?!\\s*$)[^\\u0000-\\u001F\\u007F-\\u009F]+$',
    },
    categoryId: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
    status: { type: 'string', enum: STATUSES },
  },
} as const;

const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    status: { type: 'string', enum: STATUSES },
    cursor: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;

const app = Fastify({
  logger: LOG_LEVEL ? { level: LOG_LEVEL } : false,
  bodyLimit: 64 * 1024,
  ajv: { customOptions: { removeAdditional: false } },
});
app.decorateRequest('peerKey', null);
// JSON only: any other body is 415 (Fastify also parses text/plain by default).
app.removeContentTypeParser('text/plain');

function classify(error: FastifyError | ApiError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) {
    const code = error.validationContext === 'body' ? 'invalid_body' : 'invalid_parameter';
    return new ApiError(400, code, error.message);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'unsupported_media_type', 'the body must be sent as application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'payload_too_large', 'the body is larger than 64 KiB');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, 'invalid_json', 'the body is not well-formed JSON');
  }
  if (error instanceof SyntaxError)
    return new ApiError(400, 'invalid_json', 'the body is not well-formed JSON');
  if (error.statusCode !== undefined && error.statusCode < 500)
    return new ApiError(error.statusCode, 'invalid_request', error.message);
  return new ApiError(500, 'internal_error', 'an unexpected error occurred');
}

app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
  const { status, code, message } = classify(error);
  if (status >= 500) request.log.error(error);
  if (status === 401) reply.header('www-authenticate', 'Bearer');
  return reply.code(status).send({ code, message, status });
});

app.setNotFoundHandler((request, reply) =>
  reply
    .code(404)
    .send({ code: 'not_found', message: `no route for ${request.method} ${request.url}`, status: 404 }),
);

async function authenticate(request: FastifyRequest): Promise<void> {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7) : '';
  const key = token === '' ? undefined : findKey.get(hashKey(token));
  if (!key) throw new ApiError(401, 'unauthorized', 'a valid API key is required');
  request.setDecorator('peerKey', key);
}

await app.register(
  async (v1) => {
    v1.addHook('onRequest', authenticate);
    await v1.register(rateLimit, {
      timeWindow: 60_000,
      max: (request) => request.getDecorator<PeerKey>('peerKey').perMinute,
      keyGenerator: (request) => request.getDecorator<PeerKey>('peerKey').id,
      errorResponseBuilder: (_request, context) =>
        new ApiError(429, 'rate_limited', `over ${context.max} requests a minute; retry in ${context.after}`),
    });

    v1.get<{ Querystring: { limit: number; status?: string; cursor?: string } }>(
      '/pets',
      { schema: { querystring: listQuery, response: { 200: { type: 'array', items: pet } } } },
      async (request, reply) => {
        const { limit, status, cursor } = request.query;
        const after = cursor === undefined ? 0 : readCursor(cursorSecret, cursor, status);
        if (after === undefined)
          throw new ApiError(400, 'invalid_cursor', 'the cursor is not valid for this query');
        const rows =
          status === undefined ? listAll.all(after, limit + 1) : listByStatus.all(status, after, limit + 1);
        if (rows.length > limit) {
          rows.length = limit;
          const next = new URLSearchParams({ limit: String(limit) });
          if (status !== undefined) next.set('status', status);
          next.set('cursor', signCursor(cursorSecret, rows[limit - 1]!.id, status));
          reply.header('link', `</v1/pets?${next}>; rel="next"`);
        }
        return rows.map(toPet);
      },
    );

    v1.get<{ Params: { petId: string } }>(
      '/pets/:petId',
      { schema: { response: { 200: pet } } },
      async (request, reply) => {
        reply.headers(GET_PET_DEPRECATION);
        const id = parsePetId(request.params.petId);
        if (id === undefined)
          throw new ApiError(400, 'invalid_parameter', 'petId must be a canonical 64-bit integer');
        const row = getOne.get(id);
        if (!row) throw new ApiError(404, 'not_found', `pet ${id} does not exist`);
        return toPet(row);
      },
    );

    v1.post<{ Body: { name: string; categoryId: number; status?: string } }>(
      '/pets',
      { schema: { body: newPet, response: { 201: pet } } },
      async (request, reply) => {
        const { name, categoryId, status } = request.body;
        const { id } = insert.get(name, categoryId, status ?? null)!;
        reply.code(201).header('location', `/v1/pets/${id}`);
        return toPet({ id, name, categoryId, status: (status ?? null) as PetRow['status'] });
      },
    );
  },
  { prefix: '/v1' },
);

await app.listen({ port: Number(PORT), host: HOST });
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    app.close().then(() => {
      db.close();
      process.exit(0);
    });
  });
}
