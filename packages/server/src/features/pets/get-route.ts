import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../../errors.ts';
import { JSON_CONTENT_TYPE } from '../../http/send-error.ts';
import { parseInt64 } from '../../json/int64.ts';
import type { PetService } from './service.ts';
import { queryReader } from '../../validation/query.ts';

/** getPet declares no query parameter: any is refused. */
export const readGetQuery = queryReader('/pets/{petId}', 'get');

/** getPet's answer for the `petId` path segment: the pet's JSON, or the ApiError to answer with. */
export async function findPet(pets: PetService, petId: string): Promise<string> {
  const id = parseInt64(petId);
  if (id === undefined) {
    throw new ApiError('invalid_parameter', 'petId must be a 64-bit integer in canonical decimal form', {
      param: 'petId',
    });
  }
  const pet = await pets.get(id);
  if (pet === undefined) throw new ApiError('not_found', `pet ${id} does not exist`);
  return pet;
}

/** getPet (deprecated: its headers and its 410 after the sunset come from the route table). */
export function getPet(pets: PetService): RouteHandlerMethod {
  return async (request, reply) => {
    readGetQuery(request.query as Record<string, string>);
    const pet = await findPet(pets, (request.params as { petId: string }).petId);
    return reply.code(200).header('content-type', JSON_CONTENT_TYPE).send(pet);
  };
}
