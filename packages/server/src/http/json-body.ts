import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { parseJson } from '@petstore/json';

/** The largest request body accepted; a larger one is 413 payload_too_large. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** Refuses malformed UTF-8 instead of silently replacing it with U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The only body parser: application/json in UTF-8, integers kept exact. Other media types fall through
 * to Fastify's 415; a body that is not JSON is `invalid_json`.
 */
export function installJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
    if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
      done(
        new ApiError('unsupported_media_type', `charset ${charset} is not supported; send UTF-8`),
        undefined,
      );
      return;
    }
    try {
      done(null, parseJson(UTF8.decode(body as Buffer)));
    } catch {
      done(new ApiError('invalid_json', 'the request body is not valid JSON in UTF-8'), undefined);
    }
  });
}
