import type { RouteHandlerMethod } from 'fastify';
import { docsAsset } from '../docs/assets.ts';
import { clientAsset } from '../docs/client-assets.ts';
import { docsPage } from '../docs/page.ts';
import { ApiError } from '../errors.ts';
import { publicContract } from '../openapi/contract.ts';
import { sendStaticAsset } from '../web/static-asset.ts';
import { urlFor } from '../features/shared/urls.ts';

/** getDocs: the API reference page (public, not rate limited), titled as the contract, calling its own origin. */
export const getDocs: RouteHandlerMethod = async (request, reply) =>
  sendStaticAsset(request, reply, docsPage({ title: publicContract().document.info.title, apiOrigin: '' }));

/** getManageDocs: the management API's reference (openapi/manage.yaml) on the same page. */
export const getManageDocs: RouteHandlerMethod = async (request, reply) =>
  sendStaticAsset(
    request,
    reply,
    docsPage({ title: 'Petstore Management API', apiOrigin: '', edition: 'manage' }),
  );

/**
 * The scripts, style sheet and reference data the page loads, and the typed client's files (outside the
 * contract): 503 while those are not built or older than their sources.
 */
export const getDocsAsset: RouteHandlerMethod = async (request, reply) => {
  const { name } = request.params as { name: string };
  const client = clientAsset(name);
  if (client && 'unavailable' in client) throw new ApiError('service_unavailable', client.unavailable);
  const found = client ? client.assets.get(name) : await docsAsset(name);
  if (!found) throw new ApiError('not_found', `no resource at ${request.url.split('?', 1)[0]}`);
  return sendStaticAsset(request, reply, found);
};

/**
 * `GET /` → `302` to the reference. Temporary on purpose: browsers do not remember it, so the root can
 * later become something else.
 */
export const redirectToDocs: RouteHandlerMethod = async (_request, reply) =>
  reply.redirect(urlFor('getDocs'), 302);

/**
 * `GET /docs/` → `301` to `/docs` with the same query: the reference has one address, and a typed or
 * linked trailing slash still finds it.
 */
export const redirectDocsSlash: RouteHandlerMethod = async (request, reply) => {
  const query = request.url.indexOf('?');
  return reply.redirect(`${urlFor('getDocs')}${query === -1 ? '' : request.url.slice(query)}`, 301);
};
