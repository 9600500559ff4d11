import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { notFound, refuseOtherMethod } from '../http/not-found.ts';
import type { RouteConfig } from '../http/route-config.ts';
import type { AreaMatch, AreaRouter } from './area-router.ts';
import { ALL_METHODS, supportAllMethods } from './table.ts';

export interface LazyAreaOptions {
  /** Its prefix routes in the router's form: `/manage/v1/*`; `/dashboard` and `/dashboard/*`. */
  prefixes: readonly string[];
  /**
   * How a request to a prefix route is guarded, counted and answered while it has no route of the
   * area: only when the area's module could not be imported (a 500, tried again by the next request).
   */
  config: RouteConfig;
  /** Imports the area's module and builds its router: on the first request to any of its paths. */
  load(): Promise<AreaRouter>;
}

export interface LazyArea {
  /** Registers the prefix routes in `app`'s scope, whose body parsers they use. */
  register(app: FastifyInstance): void;
}

/**
 * The application's 404 parses a body only as JSON (its parser; any other type is not read) before
 * it answers. A path the area has no route for is answered alike: before its body is read, unless
 * that body is JSON, whose errors (400, 413, 415) come first there too.
 */
async function answerMissBeforeBody(request: FastifyRequest, match: AreaMatch | undefined): Promise<void> {
  if (!match?.miss) return;
  const type = request.headers['content-type'];
  if (type === undefined || (request.mediaType !== undefined && request.mediaType !== 'application/json')) {
    await notFound(request);
  }
}

/**
 * A HEAD answered by a GET route, as the framework answers one (its HEAD route of every GET route):
 * the length of the body the GET would send (0 for none), and no body; a stream is drained.
 */
function headOfGet(reply: FastifyReply, payload: unknown): null {
  if (payload === undefined || payload === null) reply.header('content-length', '0');
  else if (typeof (payload as Readable).resume === 'function') {
    (payload as Readable).on('error', (err) => reply.log.error({ err }, 'a HEAD answer’s stream failed'));
    (payload as Readable).resume();
  } else reply.header('content-length', String(Buffer.byteLength(payload as string | Buffer)));
  return null;
}

/**
 * An area registered on its first request: one route per prefix, on the area's kind of host, for every
 * method, whose requests the area's own router (routes/area-router.ts) routes once its module is
 * imported. The guard finds the request's route there before it reads any config (`matchRoute`), so
 * the area's routes are guarded, limited, counted and answered (404, 405, OPTIONS, HEAD) exactly as
 * if the application's router had matched them; a start registers two routes instead of the area's
 * hundreds and imports none of its modules.
 */
export function lazyArea(options: LazyAreaOptions): LazyArea {
  let router: AreaRouter | undefined;
  let loading: Promise<AreaRouter> | undefined;
  const matched = new WeakMap<FastifyRequest, AreaMatch>();
  const failed = new WeakMap<FastifyRequest, unknown>();
  const settle = (request: FastifyRequest, match: AreaMatch): RouteConfig => {
    request.params = match.params;
    request.route = match.config;
    matched.set(request, match);
    return match.config;
  };
  const config: RouteConfig = {
    ...options.config,
    area: {
      route(request) {
        if (router) return settle(request, router.match(request));
        loading ??= options.load().then(
          (loaded) => (router = loaded),
          (error: unknown) => {
            loading = undefined;
            throw error;
          },
        );
        return loading.then(
          (loaded) => settle(request, loaded.match(request)),
          (error: unknown) => {
            failed.set(request, error);
            request.route = options.config;
            return options.config;
          },
        );
      },
    },
  };
  return {
    register(app) {
      supportAllMethods(app);
      for (const url of options.prefixes) {
        app.route({
          method: ALL_METHODS as HTTPMethods[],
          // HEAD is routed like any method: the area's router gives it the path's GET route (headOfGet).
          exposeHeadRoute: false,
          url,
          constraints: { hostKind: options.config.host ?? 'api' },
          config: config as never,
          preParsing: [
            refuseOtherMethod,
            async (request: FastifyRequest) => answerMissBeforeBody(request, matched.get(request)),
          ],
          onSend: (request, reply, payload, done) =>
            done(null, matched.get(request)?.headOfGet ? headOfGet(reply, payload) : payload),
          async handler(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
            const match = matched.get(request);
            // A handler of the area runs only for a request the guard admitted to its route.
            if (!match) throw failed.get(request) ?? new Error('an area route ran without its match');
            return match.handler.call(this, request, reply);
          },
        });
      }
    },
  };
}
