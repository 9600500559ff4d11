import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { DOCS_ASSETS, DOCS_CSP, DOCS_PAGE, type DocsAsset } from '../docs/assets.ts';
import { ApiError } from '../errors.ts';

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const candidate = tag.trim();
    return candidate === '*' || candidate.replace(/^W\//, '') === etag;
  });
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: DocsAsset): FastifyReply {
  reply.headers({
    'content-type': asset.contentType,
    // Revalidated on every use (cheap with the ETag), so the page and its scripts never mismatch.
    'cache-control': 'no-cache',
    etag: asset.etag,
    'content-security-policy': DOCS_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  });
  if (matches(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
  return reply.code(200).send(asset.body);
}

/** getDocs: the API reference page (public, not rate limited). */
export const getDocs: RouteHandlerMethod = async (request, reply) => sendAsset(request, reply, DOCS_PAGE);

/** The scripts, style sheet and reference data the page loads (outside the contract). */
export const getDocsAsset: RouteHandlerMethod = async (request, reply) => {
  const asset = DOCS_ASSETS.get((request.params as { name: string }).name);
  if (!asset) throw new ApiError('not_found', `no resource at ${request.url.split('?', 1)[0]}`);
  return sendAsset(request, reply, asset);
};
