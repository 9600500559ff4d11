import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../dashboard/html.ts';
import { securityHeaders } from '../dashboard/page.ts';
import { errorTitle } from '../dashboard/views/error.ts';
import type { ApiError } from '../errors.ts';

/** An error on a docs site: a small page of its own, nothing of the dashboard. */
export function sendSiteErrorPage(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${errorTitle(error.status)}</title>
      </head>
      <body>
        <main>
          <h1>${errorTitle(error.status)}</h1>
          <p>${error.message}</p>
          ${request.site ? html`<p><a href="/">The ${request.site.project.name} API reference</a></p>` : ''}
          <p>
            <small>Status ${error.status} · request id <code>${request.id}</code></small>
          </p>
        </main>
      </body>
    </html>`;
  return reply
    .code(error.status)
    .headers(securityHeaders(request))
    .header('content-type', 'text/html; charset=utf-8')
    .send(page.value);
}
