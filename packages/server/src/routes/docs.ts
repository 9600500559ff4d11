import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { type DocsAsset, docsAsset } from '../docs/assets.ts';
import { clientPackageName } from '../docs/client-manifest.ts';
import { clientPackage } from '../docs/client-package.ts';
import { docsPage } from '../docs/page.ts';
import { ApiError } from '../errors.ts';
import { contract } from '../openapi/contract.ts';

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const candidate = tag.trim();
    return candidate === '*' || candidate.replace(/^W\//, '') === etag;
  });
}

/** The first of br and gzip that the client accepts (q > 0) and that the asset has. */
function chooseEncoding(acceptEncoding: string | undefined, asset: DocsAsset): 'br' | 'gzip' | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) =>
        part
          .trim()
          .toLowerCase()
          .split(/\s*;\s*/),
      )
      .filter(([, q]) => !/^q=0(\.0*)?$/.test(q ?? ''))
      .map(([coding]) => coding),
  );
  return (['br', 'gzip'] as const).find((coding) => accepted.has(coding) && asset.encoded[coding]);
}

/** Sends a docs asset (or a page of `docsPage`) with its validator, encoding and CSP; 304 when unchanged. */
export function sendDocsAsset(request: FastifyRequest, reply: FastifyReply, asset: DocsAsset): FastifyReply {
  const encoding = chooseEncoding(request.headers['accept-encoding'], asset);
  // A strong validator names one representation: each content coding gets its own.
  const etag = encoding ? asset.etag.replace(/"$/, `-${encoding}"`) : asset.etag;
  reply.headers({
    'content-type': asset.contentType,
    // Revalidated on every use (cheap with the ETag), so the page and its scripts never mismatch.
    'cache-control': 'no-cache',
    etag,
    'content-security-policy': asset.csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    // Whether CORS headers are present depends on Origin; the body on Accept-Encoding.
    vary: 'Origin, Accept-Encoding',
  });
  if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  if (encoding) reply.header('content-encoding', encoding);
  return reply.code(200).send(encoding ? asset.encoded[encoding] : asset.body);
}

/** getDocs: the API reference page (public, not rate limited), titled as the contract, calling its own origin. */
export const getDocs: RouteHandlerMethod = async (request, reply) =>
  sendDocsAsset(request, reply, docsPage({ title: contract.info.title, apiOrigin: '' }));

/** The scripts, style sheet and reference data the page loads, and the client's package (outside the contract). */
export const getDocsAsset: RouteHandlerMethod = async (request, reply) => {
  const { name } = request.params as { name: string };
  const found = name === clientPackageName().file ? await clientPackage() : docsAsset(name);
  if (!found) throw new ApiError('not_found', `no resource at ${request.url.split('?', 1)[0]}`);
  return sendDocsAsset(request, reply, found);
};

/**
 * `GET /` → `302` to the reference. Temporary on purpose: browsers do not remember it, so the root can
 * later become something else.
 */
export const redirectToDocs: RouteHandlerMethod = async (_request, reply) => reply.redirect('/docs', 302);
