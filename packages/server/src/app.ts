import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createAuthenticator } from './auth/authenticator.ts';
import type { KeyEnvironment } from './auth/keys.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { installGuard } from './http/guard.ts';
import { installJsonBody } from './http/json-body.ts';
import { installNotFound } from './http/not-found.ts';
import { createPetService } from './pets/pet-service.ts';
import type { RateLimiter } from './ratelimit/limiter.ts';
import { registerHealth } from './routes/health.ts';
import { registerOpenapi } from './routes/openapi.ts';
import { DEPRECATION_HEADERS, isGetPetPath, registerGetPet } from './routes/pets-get.ts';
import { registerCreatePet } from './routes/pets-create.ts';
import { registerListPets } from './routes/pets-list.ts';
import { registerStoreOrders } from './routes/store-orders.ts';
import type { Storage } from './storage/repository.ts';
import type { Clock } from './time/clock.ts';

export interface AppDeps {
  storage: Storage;
  limiter: RateLimiter;
  clock: Clock;
  /** Which keys are accepted: `live` in production, `test` elsewhere. */
  keyEnvironment: KeyEnvironment;
  logger?: FastifyServerOptions['logger'];
  /** Honour X-Forwarded-For from these proxies (see Fastify's trustProxy). */
  trustProxy?: FastifyServerOptions['trustProxy'];
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const ROUTES = [
  { pattern: /^\/v1\/pets$/, methods: ['GET', 'POST'] },
  { pattern: /^\/v1\/pets\/[^/]+$/, methods: ['GET'] },
  { pattern: /^\/v1\/store\/orders$/, methods: ['GET'] },
  { pattern: /^\/v1\/openapi\.json$/, methods: ['GET'] },
  { pattern: /^\/(healthz|readyz|metrics|docs)$/, methods: ['GET'] },
];

/** Builds the application; it never listens (server.ts does). */
export function buildApp(deps: AppDeps): FastifyInstance {
  const app = Fastify({
    logger: deps.logger ?? false,
    disableRequestLogging: true,
    bodyLimit: 64 * 1024,
    trustProxy: deps.trustProxy ?? false,
    return503OnClosing: true,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });

  const authenticator = createAuthenticator({
    keys: deps.storage,
    clock: deps.clock,
    environment: deps.keyEnvironment,
    changeToken: () => deps.storage.changeToken(),
  });
  const pets = createPetService({ storage: deps.storage, clock: deps.clock });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (isGetPetPath(request.url)) reply.headers(DEPRECATION_HEADERS);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        keyId: request.apiKey?.id,
      },
      'request',
    );
  });

  installJsonBody(app);
  installErrorHandler(app);
  installGuard(app, { authenticator, limiter: deps.limiter, keys: deps.storage });
  installNotFound(app, ROUTES);

  registerListPets(app, pets);
  registerCreatePet(app, pets);
  registerGetPet(app, pets, deps.clock);
  registerStoreOrders(app);
  registerOpenapi(app);
  registerHealth(app, { storage: deps.storage, limiter: deps.limiter });
  return app;
}
