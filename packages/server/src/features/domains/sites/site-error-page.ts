import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../../../errors.ts';
import { sendErrorAsPage } from '../../../web/error-page.ts';

/** An error on a docs site: the error page, naming the project and linking its reference when known. */
export function sendSiteErrorPage(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
): FastifyReply {
  const name = request.site?.project.name;
  return sendErrorAsPage(
    request,
    reply,
    error,
    name ? { brand: name, link: { href: '/', text: `The ${name} API reference` } } : {},
  );
}
