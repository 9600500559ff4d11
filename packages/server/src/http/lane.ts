import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { inTurn } from './turns.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What the server does with each request: the lane first, then the framework (tests inject here). */
    dispatch: RequestListener;
    /** The same, without the lane: what the lane must be indistinguishable from (differential tests). */
    withoutLane: RequestListener;
  }
}

/** Takes a request the framework need not route, or says no (see features/pets/lane.ts). */
export type RequestLane = (
  request: IncomingMessage,
  response: ServerResponse,
  framework: RequestListener,
) => boolean;

/**
 * Puts `lane` in front of the framework's request listener on the app's server (and as `app.dispatch`,
 * for in-process tests), so the server's every request meets it first; both take pipelined requests in
 * turn (see inTurn). `prepare` runs, in the request's turn, before both (it looks up what a host serves
 * when that is not known yet: the router then reads it synchronously).
 */
export function installLane(
  app: FastifyInstance,
  lane: RequestLane,
  prepare?: (request: IncomingMessage) => Promise<void> | undefined,
): void {
  const server = app.server;
  const [framework] = server.listeners('request') as RequestListener[];
  if (!framework) throw new Error('the server has no request listener to put the lane in front of');
  const prepared =
    (listener: RequestListener): RequestListener =>
    (request, response) => {
      const pending = prepare?.(request);
      if (pending === undefined) listener(request, response);
      else void pending.then(() => listener(request, response));
    };
  const dispatch = inTurn(
    prepared((request, response) => {
      if (!lane(request, response, framework)) framework(request, response);
    }),
  );
  server.removeListener('request', framework);
  server.on('request', dispatch);
  app.decorate('dispatch', dispatch);
  app.decorate('withoutLane', inTurn(prepared(framework)));
}
