import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody } from '../errors.ts';
import { routeConfig } from './route-config.ts';
import { StorageUnavailableError } from '../storage/errors.ts';
import { prefersHtml } from './accept.ts';
import { BODY_LIMIT_BYTES } from './json-body.ts';
import { sendError } from './send-error.ts';

/** Maps what Fastify and the layers below throw onto the error catalogue; nothing internal leaks. */
function toApiError(error: FastifyError | Error): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StorageUnavailableError) {
    return new ApiError('service_unavailable', 'the database is unavailable; retry later', {
      headers: { 'retry-after': '1' },
    });
  }
  switch ((error as FastifyError).code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large', `the request body exceeds ${BODY_LIMIT_BYTES / 1024} KiB`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', 'the request body must be application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_json', 'the request body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('invalid_body', 'the Content-Length header does not match the body');
    default:
      if ((error as FastifyError).statusCode === 400) {
        return new ApiError('invalid_body', 'the request could not be read');
      }
      return new ApiError(
        'internal_error',
        'an unexpected error occurred; quote the requestId when reporting it',
      );
  }
}

/** Answers an error as a page instead of the Error body. */
export type ErrorPage = (request: FastifyRequest, reply: FastifyReply, error: ApiError) => FastifyReply;

declare module 'fastify' {
  interface FastifyRequest {
    /** The `code` of the error answered, for the request log. */
    errorCode?: string;
    /** The `message` of the error answered, for the request log. */
    errorMessage?: string;
  }
}

/** Adds `Accept` to the response's `Vary`: the answer was chosen by it. */
function varyOnAccept(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, Accept` : 'Accept');
}

/**
 * Every error ends here as the Error body or as a page. A page on the routes that show pages (dashboard,
 * docs sites); on the API's routes (`/v1`, guarded by key) always the Error body, as the contract says;
 * on every other route (unknown paths outside `/v1`, any path of an unknown host, the docs' files) a page
 * when the request prefers `text/html` to `application/json` (a browser), else the Error body.
 * Only an unexpected failure (500) is logged as an error, with its stack; a dependency outage (503) is a
 * warning naming the cause without a stack (the outage itself is reported where it is detected);
 * expected answers (4xx, the planned 501) only have their request line.
 */
export function installErrorHandler(app: FastifyInstance, errorPage?: ErrorPage): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error);
    request.errorCode = apiError.code;
    request.errorMessage = errorBody(apiError).message;
    if (apiError.code === 'internal_error') request.log.error({ err: error }, 'request failed');
    else if (apiError.code === 'service_unavailable') {
      request.log.warn({ cause: error.message }, 'request failed: a dependency is unavailable');
    }
    const config = routeConfig(request);
    if (errorPage && config.htmlErrors) return errorPage(request, reply, apiError);
    if (errorPage && config.access !== 'apiKey' && config.access !== 'accessToken') {
      varyOnAccept(reply);
      if (prefersHtml(request.headers.accept)) return errorPage(request, reply, apiError);
    }
    return sendError(request, reply, apiError);
  });
}
