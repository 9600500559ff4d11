import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RouteHandlerMethod } from 'fastify';
import { asset, type DocsAsset } from '../docs/assets.ts';
import { ApiError } from '../errors.ts';
import { sendDocsAsset } from '../routes/docs.ts';

const PUBLIC_DIR = path.join(import.meta.dirname, 'public');

/** The dashboard's style sheet and script, read and compressed once at start-up. */
const ASSETS: ReadonlyMap<string, DocsAsset> = new Map(
  readdirSync(PUBLIC_DIR).map(
    (name) => [name, asset(name, readFileSync(path.join(PUBLIC_DIR, name)))] as const,
  ),
);

export const dashboardAsset: RouteHandlerMethod = async (request, reply) => {
  const found = ASSETS.get((request.params as { name: string }).name);
  if (!found) throw new ApiError('not_found', `no resource at ${request.url.split('?', 1)[0]}`);
  return sendDocsAsset(request, reply, found);
};
