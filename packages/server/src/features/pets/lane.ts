import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { parse as parseQuery } from 'fast-querystring';
import type { AnsweredRequest } from '../../http/answered.ts';
import type { ClientOrigin } from '../../http/client-origin.ts';
import { type AdmitDeps, type Admittable, admit, checkSunset } from '../../http/guard.ts';
import { handOff } from '../../http/lane-handoff.ts';
import { requestShapeProblem } from '../../http/request-shape.ts';
import { redactUrl } from '../../http/redact.ts';
import { HSTS } from '../../http/scheme.ts';
import { JSON_CONTENT_TYPE } from '../../http/send-error.ts';
import { BODY_LIMIT_BYTES, parseJsonBody } from '../../http/json-body.ts';
import type { PetService } from './service.ts';
import { type HostRules, requestHostKind } from '../../http/host-kind.ts';
import type { PetCreator } from './create-route.ts';
import type { PetFinder } from './get-route.ts';
import type { PetLister } from './list-route.ts';
import { urlFor } from '../shared/urls.ts';
import type { RouteConfig } from '../../http/route-config.ts';

export interface PetsLaneDeps {
  admit: AdmitDeps;
  pets: PetService;
  /** listPets' and createPet's work, the very functions the framework's routes run. */
  listPage: PetLister;
  find: PetFinder;
  create: PetCreator;
  /** The route table's configuration of the operations (deprecation, limits, labels). */
  routes: { listPets: RouteConfig; getPet: RouteConfig; createPet: RouteConfig };
  hosts: HostRules;
  requestId: (request: IncomingMessage) => string;
  clientOrigin: (request: IncomingMessage) => ClientOrigin;
  log: FastifyBaseLogger;
  /** Metrics, log line and request-log row of an answered request (the same as the framework's). */
  record: (answer: AnsweredRequest) => void;
  /** While the server closes, the framework answers (with `Connection: close`). */
  closing: () => boolean;
}

/**
 * Serves a request; false when it is not one the lane takes, and the framework must. `framework`
 * answers a request the lane handed over.
 */
export type Lane = (
  request: IncomingMessage,
  response: ServerResponse,
  framework: RequestListener,
) => boolean;

/**
 * The API's three busiest operations, `GET /v1/pets`, `GET /v1/pets/{petId}` and `POST /v1/pets`,
 * answered in one pass without the framework's per-request machinery (router, request and reply
 * objects, hook chain), which cost about as much as the work itself. It takes only the plain form of each request: exactly
 * these paths (digits for the id, no `%`, `;` or `#`; a create without a query), on a host of the API,
 * without an `Origin` or anything the request-shape checks refuse; a read without a body, a create with
 * a `Content-Length` body within the limit, of exactly `application/json`, uncompressed, without
 * `Expect`. Everything else goes to the framework's router, which routes the same paths to the same
 * operations. Every check is the framework path's own (`admit`, `checkSunset`, `find`, `listPage`,
 * `parseJsonBody`, `petCreator`), and so are the answer's headers, metrics, log line and request-log
 * row. On any error the lane hands the request over with what it had decided (rate headers, key), so
 * errors are answered by the one error handler; the framework reads no body of a request handed over.
 */
export function createPetsLane(deps: PetsLaneDeps): Lane {
  const LIST = urlFor('listPets');
  const ONE = urlFor('getPet', { petId: '' });
  const { listPage, find, create } = deps;
  const failed = (error: unknown) => deps.log.error({ err: error }, 'the API lane failed after its checks');
  return (request, response, framework) => {
    if (deps.closing()) return false;
    if (request.method === 'POST') {
      if (request.url !== LIST || !takesCreate(request, deps.hosts)) return false;
      // Admitted before its body is read, as the framework's guard runs before its body parser.
      answerInLane(deps, { request, response, framework }, deps.routes.createPet, async (admitted, own) => {
        let body: unknown;
        try {
          body = parseJsonBody(request.headers, await readBody(request));
        } catch (error) {
          // Like the framework's body parser, the lane closes the connection after a body it refused.
          own.connection = 'close';
          throw error;
        }
        const created = await create(body, request.headers['idempotency-key'], admitted.apiKey!.id);
        const headers: Record<string, string> = created.replayed ? { 'idempotent-replayed': 'true' } : {};
        headers.location = created.location;
        return { status: 201, headers, body: created.body };
      }).catch(failed);
      return true;
    }
    if (request.method !== 'GET') return false;
    const url = request.url!;
    if (!url.startsWith(LIST)) return false;
    const question = url.indexOf('?');
    const path = question === -1 ? url : url.slice(0, question);
    let petId: string | undefined;
    if (path !== LIST) {
      if (!path.startsWith(ONE) || !isDigits(path, ONE.length)) return false;
      petId = path.slice(ONE.length);
    }
    const headers = request.headers;
    if (
      url.includes('#') ||
      url.includes(';') ||
      headers.origin !== undefined ||
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      requestShapeProblem(request) !== undefined ||
      requestHostKind(request, deps.hosts) !== 'api'
    ) {
      return false;
    }
    const query = question === -1 ? '' : url.slice(question + 1);
    const config = petId === undefined ? deps.routes.listPets : deps.routes.getPet;
    answerInLane(deps, { request, response, framework }, config, async () => {
      if (petId !== undefined) {
        return { status: 200, body: await find(petId, query === '' ? undefined : parseQuery(query)) };
      }
      const { body, link } = await listPage(parseQuery(query));
      return { status: 200, headers: link === undefined ? undefined : { link }, body };
    }).catch(failed);
    return true;
  };
}

/** A create's body length as the lane takes it: 1 to BODY_LIMIT_BYTES, digits only. */
const BODY_LENGTH = /^[1-9][0-9]{0,5}$/;

/** Whether the lane takes this `POST /v1/pets` (see createPetsLane); the framework answers the rest. */
function takesCreate(request: IncomingMessage, hosts: HostRules): boolean {
  const headers = request.headers;
  const length = headers['content-length'];
  return (
    length !== undefined &&
    BODY_LENGTH.test(length) &&
    Number(length) <= BODY_LIMIT_BYTES &&
    headers['content-type'] === 'application/json' &&
    headers['content-encoding'] === undefined &&
    headers['transfer-encoding'] === undefined &&
    headers.expect === undefined &&
    headers.origin === undefined &&
    requestShapeProblem(request) === undefined &&
    requestHostKind(request, hosts) === 'api'
  );
}

/**
 * The request's body, of the length its Content-Length gave (Node's parser holds it to that). A client
 * that goes away first fails it with a 400 error, as the framework's body reader does.
 */
function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const gone = () => reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 }));
    if (request.destroyed) {
      gone();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    request.once('error', (error: Error & { statusCode?: number }) => {
      error.statusCode ??= 400;
      reject(error);
    });
    request.once('close', () => {
      if (!request.complete) gone();
    });
  });
}

function isDigits(text: string, from: number): boolean {
  if (text.length === from) return false;
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** A lane's answer: its status, headers of its own, and its JSON body. */
interface LaneAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/**
 * One request through the lane: admitted as the guard admits it (`admit`, `checkSunset`), then answered
 * by `work` with the headers every API answer carries; if anything throws, handed to the framework with
 * what was decided, so that the one error handler answers it.
 */
async function answerInLane(
  deps: PetsLaneDeps,
  exchange: { request: IncomingMessage; response: ServerResponse; framework: RequestListener },
  config: RouteConfig,
  /** `headers`: the answer's headers decided so far, carried on an error answer too. */
  work: (admitted: Admittable, headers: Record<string, string>) => Promise<LaneAnswer>,
): Promise<void> {
  const { request, response, framework } = exchange;
  const started = performance.now();
  const requestId = deps.requestId(request);
  const origin = deps.clientOrigin(request);
  const limitHeaders: Record<string, string> = {};
  const admittable: Admittable = {
    headers: request.headers,
    ip: origin.ip,
    apiKey: undefined,
    log: {
      warn: (obj: object, msg: string) => deps.log.warn({ reqId: requestId, ...obj }, msg),
      error: (obj: object, msg: string) => deps.log.error({ reqId: requestId, ...obj }, msg),
    } as Admittable['log'],
  };
  let answer: LaneAnswer;
  try {
    await admit(deps.admit, admittable, (set) => Object.assign(limitHeaders, set), config);
    checkSunset(config, deps.admit.clock.now());
    answer = await work(admittable, limitHeaders);
  } catch (error) {
    handOff(request, { requestId, error, headers: limitHeaders, apiKey: admittable.apiKey });
    framework(request, response);
    return;
  }
  const headers: Record<string, string> = {
    'x-request-id': requestId,
    vary: 'Origin',
    ...config.deprecation?.headers,
    ...limitHeaders,
    ...answer.headers,
    'content-type': JSON_CONTENT_TYPE,
    'content-length': String(Buffer.byteLength(answer.body)),
  };
  if (origin.https) headers['strict-transport-security'] = HSTS;
  response.writeHead(answer.status, headers);
  response.end(answer.body);
  deps.record({
    id: requestId,
    method: request.method!,
    loggedUrl: redactUrl(request.url!),
    status: answer.status,
    ms: performance.now() - started,
    key: admittable.apiKey,
    config,
    errorCode: undefined,
    address: origin.ip,
  });
}
