import type { FastifyInstance } from 'fastify';
import { ApiError, quoted } from '../errors.ts';
import { jsonParser } from '@petstore/json';
import { repeatedFieldName } from './repeated-field.ts';

/** The largest request body accepted; a larger one is 413 payload_too_large. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Refuses malformed UTF-8 instead of silently replacing it with U+FFFD, and keeps a byte order mark
 * (which JSON then refuses) instead of silently dropping it: RFC 8259 forbids sending one.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Integers exact, and objects without a prototype: no field name can reach Object.prototype. */
const parseBody = jsonParser({ nullPrototype: true });

/**
 * A request body of application/json as the API reads it: UTF-8, uncompressed, integers kept exact,
 * every field name once per object. Throws the ApiError to answer with.
 */
export function parseJsonBody(
  headers: { 'content-type'?: string; 'content-encoding'?: string },
  body: Buffer,
): unknown {
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    throw new ApiError(
      'unsupported_media_type',
      `Content-Encoding ${encoding} is not supported; send the body uncompressed`,
      {
        param: 'Content-Encoding',
        headers: { 'accept-encoding': 'identity' },
      },
    );
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    throw new ApiError('unsupported_media_type', `charset ${charset} is not supported; send UTF-8`);
  }
  let text: string;
  let parsed: unknown;
  try {
    text = UTF8.decode(body);
    parsed = parseBody(text);
  } catch (error) {
    const message =
      error instanceof RangeError
        ? 'the request body nests too deeply'
        : 'the request body is not valid JSON in UTF-8';
    throw new ApiError('invalid_json', message);
  }
  const repeated = repeatedFieldName(text)?.slice(0, 200);
  if (repeated !== undefined) {
    throw new ApiError('invalid_body', `the field ${quoted(repeated)} appears more than once`, {
      param: repeated,
    });
  }
  return parsed;
}

/**
 * The only body parser (parseJsonBody). Other media types fall through to Fastify's 415.
 */
export function installJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let parsed: unknown;
    try {
      parsed = parseJsonBody(request.headers, body as Buffer);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    done(null, parsed);
  });
}
