import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.ts';
import { parseHostHeader } from './host-name.ts';
import { MAX_URL_LENGTH } from './limits.ts';
import { hasBadAuthority } from './request-target.ts';

/**
 * What is wrong with a request as HTTP, whatever its route, that Node's parser lets through: an
 * over-long target, the asterisk form `*` with a method other than OPTIONS, no Host in HTTP/1.1 or a Host that is not one valid host, a version other than 1.0
 * and 1.1, or a transfer coding other than chunked. Undefined when nothing is. A few comparisons: it
 * runs on every request.
 */
export function requestShapeProblem(raw: IncomingMessage): ApiError | undefined {
  if (raw.url !== undefined && raw.url.length > MAX_URL_LENGTH) {
    return new ApiError('uri_too_long', `the request target exceeds ${MAX_URL_LENGTH / 1024} KiB`);
  }
  // The asterisk form names no resource: it is for OPTIONS only (RFC 9112 §3.2.4).
  if (raw.url === '*' && raw.method !== 'OPTIONS') {
    return new ApiError('invalid_request', `the request target * is for OPTIONS only, not ${raw.method}`);
  }
  if (raw.httpVersionMajor !== 1 || raw.httpVersionMinor > 1) {
    return new ApiError('invalid_request', `HTTP/${raw.httpVersion} is not supported; use HTTP/1.1`);
  }
  if (hasBadAuthority(raw)) {
    return new ApiError('invalid_request', 'the request target names no valid host', { param: 'Host' });
  }
  const host = raw.headers.host;
  // Two Host fields joined by ", " name no host either; a port must be 0-65535.
  if (host === undefined ? raw.httpVersionMinor === 1 : parseHostHeader(host) === undefined) {
    return new ApiError('invalid_request', 'an HTTP/1.1 request needs exactly one valid Host header', {
      param: 'Host',
    });
  }
  const transferEncoding = raw.headers['transfer-encoding'];
  if (transferEncoding !== undefined && transferEncoding.toLowerCase() !== 'chunked') {
    return new ApiError('invalid_request', 'Transfer-Encoding other than chunked is not supported', {
      param: 'Transfer-Encoding',
    });
  }
  return undefined;
}
