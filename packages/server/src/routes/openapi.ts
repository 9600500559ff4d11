import type { FastifyInstance } from 'fastify';
import { JSON_CONTENT_TYPE } from '../http/send-error.ts';
import { openapiJson } from '../openapi/document.ts';

export function registerOpenapi(app: FastifyInstance): void {
  app.get('/v1/openapi.json', async (_request, reply) =>
    reply
      .header('content-type', JSON_CONTENT_TYPE)
      .header('cache-control', 'public, max-age=300')
      .send(openapiJson),
  );
}
