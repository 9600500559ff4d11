import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { JSON_CONTENT_TYPE } from '../http/send-error.ts';
import { parseInt64 } from '../json/int64.ts';
import type { PetService } from '../pets/pet-service.ts';
import type { Clock } from '../time/clock.ts';

/** 5 December 2030, 00:00 UTC: getPet is removed. */
export const GET_PET_SUNSET = Date.UTC(2030, 11, 5);
/** When getPet was announced as deprecated (the release of interface 1.0.0). */
export const GET_PET_DEPRECATED = Date.UTC(2026, 0, 1);

export const DEPRECATION_HEADERS: Record<string, string> = {
  deprecation: `@${GET_PET_DEPRECATED / 1000}`,
  sunset: new Date(GET_PET_SUNSET).toUTCString(),
  link: '</docs#tag/Pets/operation/getPet>; rel="deprecation"; type="text/html", </v1/pets>; rel="successor-version"',
};

/** The deprecation headers go on every getPet response, errors included. */
export function isGetPetPath(url: string): boolean {
  return /^\/v1\/pets\/[^/?]+(?:\?|$)/.test(url);
}

/** getPet (deprecated): one pet by id; from the sunset instant on it answers 410 gone. */
export function registerGetPet(app: FastifyInstance, pets: PetService, clock: Clock): void {
  app.get('/v1/pets/:petId', async (request, reply) => {
    if (clock.now() >= GET_PET_SUNSET) {
      throw new ApiError(
        'gone',
        'GET /v1/pets/{petId} was removed on 2030-12-05; use GET /v1/pets with the status filter',
      );
    }
    const raw = (request.params as { petId: string }).petId;
    const id = parseInt64(raw);
    if (id === undefined) {
      throw new ApiError('invalid_parameter', 'petId must be a 64-bit integer in canonical decimal form', {
        param: 'petId',
      });
    }
    const pet = await pets.get(id);
    if (pet === undefined) throw new ApiError('not_found', `pet ${id} does not exist`);
    return reply.code(200).header('content-type', JSON_CONTENT_TYPE).send(pet);
  });
}
