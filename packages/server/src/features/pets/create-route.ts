import type { RouteHandlerMethod } from 'fastify';
import { urlFor } from '../shared/urls.ts';
import { apiKeyOf } from '../../http/guard.ts';
import { ApiError } from '../../errors.ts';
import { JSON_CONTENT_TYPE } from '../../http/send-error.ts';
import { readIdempotencyKey } from '../../idempotency/policy.ts';
import type { PetService } from './service.ts';
import type { NewPet } from '../../storage/records.ts';
import type { OpenApiDocument } from '../../openapi/contract.ts';
import { bodyChecker } from '../../validation/contract-input.ts';
import { queryReader } from '../../validation/query.ts';

/** The checked body as a NewPet; `12.0` is the integer 12 in JSON, so numbers are normalised to bigint. */
function toNewPet(body: Record<string, unknown>): NewPet {
  const pet: NewPet = { name: body.name as string, categoryId: BigInt(body.categoryId as bigint | number) };
  if (body.status !== undefined) pet.status = body.status as NewPet['status'];
  return pet;
}

/** A created (or replayed) pet as the API answers it. */
export interface CreatedAnswer {
  body: string;
  location: string;
  replayed: boolean;
}

/**
 * createPet's work for a parsed body and its Idempotency-Key header, once the key is admitted: the
 * framework's route and the API's lane (lane.ts) both answer from here. Throws the ApiError to
 * answer with.
 */
export type PetCreator = (
  body: unknown,
  idempotencyHeader: string | string[] | undefined,
  apiKeyId: string,
) => Promise<CreatedAnswer>;

/** The PetCreator of `pets`, its body checked by the contract's NewPet (compiled here, as the app is built). */
export function petCreator(pets: PetService, contract: OpenApiDocument): PetCreator {
  const checkNewPet = bodyChecker('NewPet', contract);
  // A pet id is digits only, so its URL is the template's prefix and the id, with nothing to encode.
  const petUrl = urlFor('getPet', { petId: '' });
  return async (body, idempotencyHeader, apiKeyId) => {
    checkNewPet(body);
    const idempotencyKey = readIdempotencyKey(idempotencyHeader);
    const outcome = await pets.create(
      toNewPet(body as Record<string, unknown>),
      idempotencyKey === undefined ? undefined : { apiKeyId, key: idempotencyKey },
    );
    switch (outcome.kind) {
      case 'in_progress':
        throw new ApiError(
          'idempotency_in_progress',
          'a request with this Idempotency-Key is still being processed',
          {
            param: 'Idempotency-Key',
          },
        );
      case 'key_reused':
        throw new ApiError(
          'idempotency_key_reused',
          'this Idempotency-Key was used with a different request body',
          {
            param: 'Idempotency-Key',
          },
        );
      case 'replayed':
      case 'created':
        return {
          body: outcome.body,
          location: petUrl + outcome.pet.id,
          replayed: outcome.kind === 'replayed',
        };
    }
  };
}

/**
 * createPet: validated strictly, acknowledged only once durable, optionally idempotent. It declares no
 * query parameter, so any is refused (the API's lane takes no create with a query).
 */
export function createPet(create: PetCreator, contract: OpenApiDocument): RouteHandlerMethod {
  const readQuery = queryReader('/pets', 'post', contract);
  return async (request, reply) => {
    readQuery(request.query as Record<string, string>);
    if (request.body === undefined) {
      const length = request.headers['content-length'];
      if (request.headers['content-type'] === undefined && (length === undefined || length === '0')) {
        throw new ApiError('invalid_body', 'a JSON body with name and categoryId is required');
      }
      throw new ApiError('unsupported_media_type', 'the request body must be application/json');
    }
    const created = await create(request.body, request.headers['idempotency-key'], apiKeyOf(request).id);
    if (created.replayed) reply.header('idempotent-replayed', 'true');
    return reply
      .code(201)
      .header('location', created.location)
      .header('content-type', JSON_CONTENT_TYPE)
      .send(created.body);
  };
}
