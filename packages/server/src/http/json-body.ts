import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { parseJsonLossless } from '../json/int64.ts';

/**
 * The only body parser: application/json in UTF-8, integers kept exact. Other media types fall through
 * to Fastify's 415; a body that is not JSON is `invalid_json`.
 */
export function installJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
    if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
      done(
        new ApiError('unsupported_media_type', `charset ${charset} is not supported; send UTF-8`),
        undefined,
      );
      return;
    }
    try {
      done(null, parseJsonLossless(body as string));
    } catch {
      done(new ApiError('invalid_json', 'the request body is not valid JSON'), undefined);
    }
  });
}
