import type { RouteHandlerMethod } from 'fastify';
import { JSON_CONTENT_TYPE } from '../../http/send-error.ts';
import { decodeCursor } from './cursor.ts';
import type { PetService } from './service.ts';
import type { PetStatus } from '../../storage/records.ts';
import type { OpenApiDocument } from '../../openapi/contract.ts';
import { queryReader } from '../../validation/query.ts';
import { urlFor } from '../shared/urls.ts';

let listUrl: string | undefined;

function nextLink(limit: number, status: PetStatus | undefined, cursor: string): string {
  listUrl ??= urlFor('listPets');
  const filter = status === undefined ? '' : `&status=${status}`;
  return `<${listUrl}?limit=${limit}${filter}&cursor=${cursor}>; rel="next"`;
}

/** A page of listPets: its JSON body and, while more pets match, its `Link: <…>; rel="next"`. */
export interface PetsPage {
  body: string;
  link: string | undefined;
}

/** listPets' answer for a parsed query string (keyset pages in ascending id order), or the ApiError. */
export type PetLister = (rawQuery: Record<string, string | string[] | undefined>) => Promise<PetsPage>;

/**
 * listPets' work, shared by the framework's route and the API's lane: the query read by the contract's
 * parameters of `GET /pets` (compiled here, as the app is built).
 */
export function petLister(pets: PetService, contract: OpenApiDocument): PetLister {
  const readQuery = queryReader('/pets', 'get', contract);
  return async function listPage(rawQuery) {
    const query = readQuery(rawQuery);
    const status = query.status as PetStatus | undefined;
    const limit = Number(query.limit);
    const afterId = typeof query.cursor === 'string' ? decodeCursor(query.cursor, status) : undefined;
    const page = await pets.list({ status, afterId, limit });
    return {
      body: page.body,
      link: page.nextCursor === undefined ? undefined : nextLink(limit, status, page.nextCursor),
    };
  };
}

/** listPets: keyset pages in ascending id order; `Link: <…>; rel="next"` while more pets match. */
export function listPets(listPage: PetLister): RouteHandlerMethod {
  return async (request, reply) => {
    const page = await listPage(request.query as Record<string, string | string[]>);
    if (page.link !== undefined) reply.header('link', page.link);
    return reply.code(200).header('content-type', JSON_CONTENT_TYPE).send(page.body);
  };
}
