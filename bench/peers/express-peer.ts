import { Ajv } from 'ajv';
import express, { type NextFunction, type Request, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
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
 * The Pet Store API as a team would write it with Express 5, express-rate-limit and better-sqlite3:
 * bearer keys looked up by SHA-256, a per-key limit per minute with X-RateLimit-* headers, the
 * contract's Error body, durable inserts, cursor paging. A peer to measure the project against.
 *
 * Environment: DATABASE_PATH (required), PORT (default 3000), HOST (127.0.0.1), CURSOR_SECRET.
 */
const { DATABASE_PATH, PORT = '3000', HOST = '127.0.0.1' } = process.env;
if (!DATABASE_PATH) throw new Error('DATABASE_PATH is required');
const cursorSecret = process.env.CURSOR_SECRET ?? 'peer cursor secret';

const db = openDatabase(DATABASE_PATH);
const findKey = db.prepare<[string], { id: string; perMinute: number }>(
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

const validateNewPet = new Ajv().compile<{ name: string; categoryId: number; status?: string }>({
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
});

const app = express();
app.disable('x-powered-by');

function authenticate(request: Request, response: Response, next: NextFunction): void {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7) : '';
  const key = token === '' ? undefined : findKey.get(hashKey(token));
  if (!key) throw new ApiError(401, 'unauthorized', 'a valid API key is required');
  response.locals.apiKey = key;
  next();
}

const limiter = rateLimit({
  windowMs: 60_000,
  limit: (_request, response) => response.locals.apiKey.perMinute,
  keyGenerator: (_request, response) => response.locals.apiKey.id,
  legacyHeaders: true,
  standardHeaders: false,
  handler: (_request, response, _next, options) => {
    const limit = response.locals.apiKey.perMinute;
    response.status(options.statusCode).json({
      code: 'rate_limited',
      message: `over ${limit} requests a minute`,
      status: options.statusCode,
    });
  },
});

const v1 = express.Router();
v1.use(authenticate, limiter);

function queryText(request: Request, name: string): string | undefined {
  const value = request.query[name];
  if (value === undefined || typeof value === 'string') return value;
  throw new ApiError(400, 'invalid_parameter', `${name} must be given once`);
}

v1.get('/pets', (request, response) => {
  for (const name of Object.keys(request.query)) {
    if (!['limit', 'status', 'cursor'].includes(name))
      throw new ApiError(400, 'invalid_parameter', `unknown query parameter ${name}`);
  }
  const limitText = queryText(request, 'limit') ?? '20';
  const limit = /^[1-9][0-9]{0,2}$/.test(limitText) ? Number(limitText) : 0;
  if (limit < 1 || limit > 100) throw new ApiError(400, 'invalid_parameter', 'limit must be from 1 to 100');
  const status = queryText(request, 'status');
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status))
    throw new ApiError(400, 'invalid_parameter', `status must be one of ${STATUSES.join(', ')}`);
  const cursor = queryText(request, 'cursor');
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
    response.set('link', `</v1/pets?${next}>; rel="next"`);
  }
  response.json(rows.map(toPet));
});

v1.get('/pets/:petId', (request, response) => {
  response.set(GET_PET_DEPRECATION);
  const id = parsePetId(request.params.petId);
  if (id === undefined)
    throw new ApiError(400, 'invalid_parameter', 'petId must be a canonical 64-bit integer');
  const row = getOne.get(id);
  if (!row) throw new ApiError(404, 'not_found', `pet ${id} does not exist`);
  response.json(toPet(row));
});

v1.post('/pets', express.json({ limit: '64kb' }), (request, response) => {
  if (!request.is('application/json'))
    throw new ApiError(415, 'unsupported_media_type', 'the body must be sent as application/json');
  if (!validateNewPet(request.body)) {
    const [first] = validateNewPet.errors ?? [];
    throw new ApiError(
      400,
      'invalid_body',
      `body${first?.instancePath ?? ''} ${first?.message ?? 'is invalid'}`,
    );
  }
  const { name, categoryId, status } = request.body;
  const { id } = insert.get(name, categoryId, status ?? null)!;
  response
    .status(201)
    .location(`/v1/pets/${id}`)
    .json(toPet({ id, name, categoryId, status: (status ?? null) as PetRow['status'] }));
});

app.use('/v1', v1);

app.use((request: Request) => {
  throw new ApiError(404, 'not_found', `no route for ${request.method} ${request.path}`);
});

/** body-parser's errors carry a `type`; ours are ApiErrors; anything else is a 500. */
function classify(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large')
    return new ApiError(413, 'payload_too_large', 'the body is larger than 64 KiB');
  if (type === 'entity.parse.failed')
    return new ApiError(400, 'invalid_json', 'the body is not well-formed JSON');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return new ApiError(415, 'unsupported_media_type', 'the body must be UTF-8 JSON');
  return new ApiError(500, 'internal_error', 'an unexpected error occurred');
}

app.use((error: unknown, _request: Request, response: Response, _next: NextFunction) => {
  const { status, code, message } = classify(error);
  if (status >= 500) console.error(error);
  if (status === 401) response.set('www-authenticate', 'Bearer');
  response.status(status).json({ code, message, status });
});

const server = app.listen(Number(PORT), HOST);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close(() => {
      db.close();
      process.exit(0);
    });
    server.closeIdleConnections();
  });
}
