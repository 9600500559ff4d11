import type { RouteHandlerMethod } from 'fastify';
import { ApiError } from '../../errors.ts';
import { JSON_CONTENT_TYPE } from '../../http/send-error.ts';
import { parseInt64 } from '../../json/int64.ts';
import type { PetService } from './service.ts';
import { queryReader } from '../../validation/query.ts';
import type { OpenApiDocument } from '../../openapi/contract.ts';

/**
 * getPet's work for its `petId` path segment and its query (undefined when none was sent), shared by the
 * framework's route and the API's lane: the pet's JSON, or the ApiError to answer with.
 */
export type PetFinder = (petId: string, query: Record<string, string> | undefined) => Promise<string>;

/** The PetFinder of `pets`; getPet declares no query parameter, so any is refused. */
export function petFinder(pets: PetService, contract: OpenApiDocument): PetFinder {
  const readQuery = queryReader('/pets/{petId}', 'get', contract);
  return async (petId, query) => {
    if (query !== undefined) readQuery(query);
    return findPet(pets, petId);
  };
}

async function findPet(pets: PetService, petId: string): Promise<string> {
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
export function getPet(find: PetFinder): RouteHandlerMethod {
  return async (request, reply) => {
    const pet = await find(
      (request.params as { petId: string }).petId,
      request.query as Record<string, string>,
    );
    return reply.code(200).header('content-type', JSON_CONTENT_TYPE).send(pet);
  };
}
