import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { AnsweredRequest } from '../http/answered.ts';
import { clientOriginReader } from '../http/client-origin.ts';
import type { AdmitDeps } from '../http/guard.ts';
import type { HostRules } from '../http/host-kind.ts';
import { installLane } from '../http/lane.ts';
import { createPetService, type PetService } from '../features/pets/service.ts';
import type { Store as Storage } from '../features/store.ts';
import type { Clock } from '../time/clock.ts';
import { type Area, registerAreaRoutes, type RouteTable } from './area.ts';
import { lazyHandlers } from './lazy-handlers.ts';
import { getOpenApiDocument } from './openapi.ts';
import { createPet, petCreator } from '../features/pets/create-route.ts';
import { getPet, petFinder } from '../features/pets/get-route.ts';
import { createPetsLane } from '../features/pets/lane.ts';
import { listPets, petLister } from '../features/pets/list-route.ts';
import type { OpenApiDocument } from '../openapi/contract.ts';
import { listStoreOrders } from './store-orders.ts';

export interface ApiAreaDeps {
  /** The public API's contract, dereferenced: the pets' inputs are checked against it. */
  contract: OpenApiDocument;
  storage: Storage;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Counts a created pet (metrics). */
  petCreated: () => void;
  /** On the first getPet, read existing pets into memory in the background. */
  warmPetCache?: boolean;
  /** What the lane needs besides the pets: the guard's checks, hosts, request ids, the answer's record. */
  lane: {
    admit: AdmitDeps;
    hosts: HostRules;
    requestId: (request: IncomingMessage) => string;
    trustProxy: boolean | string;
    record: (answer: AnsweredRequest) => void;
  };
}

/**
 * getPet is deprecated, so its pets are read into memory only once a client asks for one: the first
 * getPet starts the warm-up in the background, and a deployment whose clients moved on pays nothing.
 */
function warmingOnFirstGet(pets: PetService, log: FastifyBaseLogger) {
  let closing = false;
  let started = false;
  const start = () => {
    started = true;
    const begun = performance.now();
    pets
      .warm(() => closing)
      .then(
        (loaded) =>
          log.info({ loaded, ms: Math.round(performance.now() - begun) }, 'pets loaded into memory'),
        (error: unknown) => log.warn({ err: error }, 'loading pets into memory stopped early'),
      );
  };
  const warming: PetService = {
    ...pets,
    get(id) {
      if (!started) start();
      return pets.get(id);
    },
  };
  return { pets: warming, stop: () => (closing = true) };
}

function configOf(table: RouteTable, operationId: string) {
  const route = table.operations.find((candidate) => candidate.config.operationId === operationId);
  if (!route) throw new Error(`the route table has no ${operationId}`);
  return route.config;
}

/**
 * The API: the pets, the contract document and the docs page on the API's hosts, with the lane in
 * front of the framework for the two busiest operations. A plugin without encapsulation: its routes
 * are the root scope's (JSON bodies only) and `app.dispatch` is the server's entry.
 */
export function createApiArea(deps: ApiAreaDeps): Area {
  const service = createPetService({
    storage: deps.storage,
    clock: deps.clock,
    events: { petCreated: deps.petCreated },
  });
  const warming = deps.warmPetCache ? warmingOnFirstGet(service, deps.log) : undefined;
  const pets = warming?.pets ?? service;
  const listPage = petLister(pets, deps.contract);
  const create = petCreator(pets, deps.contract);
  const find = petFinder(pets, deps.contract);
  // The docs are imported on their first request (see lazyHandlers).
  const docs = lazyHandlers(
    ['getDocs', 'getDocsAsset', 'redirectToDocs', 'redirectDocsSlash', 'getManageDocs'],
    async () => {
      const { getDocs, getDocsAsset, redirectToDocs, redirectDocsSlash, getManageDocs } =
        await import('./docs.ts');
      return { getDocs, getDocsAsset, redirectToDocs, redirectDocsSlash, getManageDocs };
    },
  );
  const area: Omit<Area, 'plugin'> = {
    operations: {
      listPets: listPets(listPage),
      createPet: createPet(create, deps.contract),
      getPet: getPet(find),
      listStoreOrders,
      getOpenApiDocument,
      getDocs: docs.getDocs,
    },
    others: {
      getDocsAsset: docs.getDocsAsset,
      redirectToDocs: docs.redirectToDocs,
      redirectDocsSlash: docs.redirectDocsSlash,
      getManageDocs: docs.getManageDocs,
    },
  };
  let closing = false;
  const plugin: Area['plugin'] = (app, options, done) => {
    app.addHook('preClose', (next) => {
      closing = true;
      next();
    });
    if (warming) {
      app.addHook('onClose', (_instance, next) => {
        warming.stop();
        next();
      });
    }
    registerAreaRoutes(app, options, area);
    const { lane } = deps;
    installLane(
      app,
      createPetsLane({
        admit: lane.admit,
        pets,
        listPage,
        find,
        create,
        routes: {
          listPets: configOf(options.table, 'listPets'),
          getPet: configOf(options.table, 'getPet'),
          createPet: configOf(options.table, 'createPet'),
        },
        hosts: lane.hosts,
        requestId: lane.requestId,
        clientOrigin: clientOriginReader(lane.trustProxy),
        log: app.log,
        record: lane.record,
        closing: () => closing,
      }),
      lane.hosts.prepare,
    );
    done();
  };
  return { ...area, plugin: fp(plugin, { name: 'api' }) };
}
