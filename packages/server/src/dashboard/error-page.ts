import { urlFor } from '../features/shared/urls.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../errors.ts';
import { sendPage } from '../features/shared/page.ts';
import { errorTitle } from '../web/error-page.ts';
import { errorView } from './views/error.ts';

/**
 * Errors of the dashboard's routes as pages: a signed-out visit to a page goes to sign-in (and back
 * afterwards); anything else is a page with the status, the message and the request id.
 */
export function sendErrorPage(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  const path = request.url.split('?', 1)[0]!;
  if (error.code === 'unauthorized' && (request.method === 'GET' || request.method === 'HEAD')) {
    const next = path === urlFor('projectsPage') ? '' : `?next=${encodeURIComponent(path)}`;
    return reply.header('cache-control', 'no-store').redirect(`${urlFor('signInPage')}${next}`, 303);
  }
  // A project that requires two-factor sign-in sends a member without it to set it up.
  const location = error.headers?.location;
  if (error.code === 'forbidden' && location && (request.method === 'GET' || request.method === 'HEAD')) {
    return reply.header('cache-control', 'no-store').redirect(location, 303);
  }
  const current = request.signedIn;
  return sendPage(request, reply, {
    title: errorTitle(error.status),
    main: errorView(error.status, error.message, request.id),
    status: error.status,
    signedIn: current && { account: current.account, csrfToken: current.session.csrfToken },
  });
}
