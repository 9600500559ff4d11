import type { RouteHandlerMethod } from 'fastify';
import { JSON_CONTENT_TYPE } from '../http/send-error.ts';
import { publicContract } from '../openapi/contract.ts';

/** getOpenApiDocument: the contract, with 64-bit integers written digit for digit. */
export const getOpenApiDocument: RouteHandlerMethod = async (_request, reply) =>
  reply
    .header('content-type', JSON_CONTENT_TYPE)
    .header('cache-control', 'public, max-age=300')
    .send(publicContract().json);
