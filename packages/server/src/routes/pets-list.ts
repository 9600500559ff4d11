import type { RouteHandlerMethod } from 'fastify';
import { JSON_CONTENT_TYPE } from '../http/send-error.ts';
import { decodeCursor } from '../pets/cursor.ts';
import type { PetService } from '../pets/pet-service.ts';
import type { PetStatus } from '../storage/repository.ts';
import { queryReader } from '../validation/query.ts';

const readQuery = queryReader('/pets', 'get');

function nextLink(limit: number, status: PetStatus | undefined, cursor: string): string {
  const filter = status === undefined ? '' : `&status=${status}`;
  return `</v1/pets?limit=${limit}${filter}&cursor=${cursor}>; rel="next"`;
}

/** listPets: keyset pages in ascending id order; `Link: <…>; rel="next"` while more pets match. */
export function listPets(pets: PetService): RouteHandlerMethod {
  return async (request, reply) => {
    const query = readQuery(request.query as Record<string, string | string[]>);
    const status = query.status as PetStatus | undefined;
    const limit = Number(query.limit);
    const afterId = typeof query.cursor === 'string' ? decodeCursor(query.cursor, status) : undefined;
    const page = await pets.list({ status, afterId, limit });
    if (page.nextCursor !== undefined) reply.header('link', nextLink(limit, status, page.nextCursor));
    return reply.code(200).header('content-type', JSON_CONTENT_TYPE).send(page.body);
  };
}
