import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../errors.ts';
import { sendStaticAsset, type StaticAsset, staticAsset } from '../web/static-asset.ts';
import { DASHBOARD_CSP } from '../features/shared/page.ts';

const PUBLIC_DIR = path.join(import.meta.dirname, 'public');

/** The dashboard's style sheet and script, read and compressed once at start-up. */
const ASSETS: ReadonlyMap<string, StaticAsset> = new Map(
  readdirSync(PUBLIC_DIR).map(
    (name) => [name, staticAsset(name, readFileSync(path.join(PUBLIC_DIR, name)), DASHBOARD_CSP)] as const,
  ),
);

export const dashboardAsset: RouteHandlerMethod = async (request, reply) => {
  const found = ASSETS.get((request.params as { name: string }).name);
  if (!found) throw new ApiError('not_found', `no resource at ${request.url.split('?', 1)[0]}`);
  return sendStaticAsset(request, reply, found);
};
