import { checkBaseUrl } from './base-url.ts';
import { PetstoreError } from './errors.ts';
import { readNextLink } from './headers.ts';
import { parseJson, stringifyJson } from './json.ts';
import { type ApiResponse, createTransport, send } from './transport.ts';
import type {
  CreatePetOptions,
  CreatePetResult,
  GetPetResult,
  ListPetsParams,
  ListPetsResult,
  NewPet,
  Pet,
  PetsParams,
  PetstoreClientOptions,
} from './types.ts';

export { CLIENT_VERSION } from './version.ts';

export interface PetstoreClient {
  /** One page of pets by ascending id (`GET /pets`). */
  listPets(params?: ListPetsParams): Promise<ListPetsResult>;
  /** Every matching pet, once each, following `Link: <…>; rel="next"` page after page. */
  pets(params?: PetsParams): AsyncGenerator<Pet, void, undefined>;
  /** Adds a pet (`POST /pets`), always with an `Idempotency-Key`, so retrying it never adds two. */
  createPet(pet: NewPet, options?: CreatePetOptions): Promise<CreatePetResult>;
  /**
   * Fetches one pet by id (`GET /pets/{petId}`).
   *
   * @deprecated The operation sunsets on 5 December 2030 (2030-12-05T00:00:00Z); from then on this
   * throws a `PetstoreError` with code `gone` (410). Use `listPets`/`pets` with the `status` filter
   * instead, and keep the pet that `createPet` returns.
   */
  getPet(id: bigint): Promise<GetPetResult>;
}

interface Page extends ListPetsResult {
  nextUrl?: string;
}

function isPet(value: unknown): value is Pet {
  if (typeof value !== 'object' || value === null) return false;
  const pet = value as Record<string, unknown>;
  return typeof pet.id === 'bigint' && typeof pet.name === 'string' && typeof pet.categoryId === 'bigint';
}

function unexpected(response: ApiResponse, what: string): PetstoreError {
  return new PetstoreError({
    code: 'unexpected_response',
    status: response.status,
    message: `HTTP ${response.status} response body is not ${what}`,
    requestId: response.headers.get('x-request-id') ?? undefined,
    rateLimit: response.rateLimit,
  });
}

function readPet(response: ApiResponse): Pet {
  if (!isPet(response.body)) throw unexpected(response, 'a Pet');
  return response.body;
}

function checkOptions(options: PetstoreClientOptions): URL {
  const base = checkBaseUrl(options.baseUrl);
  if (typeof options.apiKey !== 'string' || options.apiKey === '') {
    throw new TypeError('apiKey must be a non-empty string');
  }
  return base;
}

/** A client of the Pet Store API v1. Options are checked here, once. */
export function createPetstoreClient(options: PetstoreClientOptions): PetstoreClient {
  const base = checkOptions(options);
  const root = base.href.replace(/\/+$/, '');
  const transport = createTransport(options, options.apiKey, parseJson);

  const listUrl = ({ limit, status, cursor }: ListPetsParams): string => {
    const query = new URLSearchParams();
    if (limit !== undefined) query.set('limit', String(limit));
    if (status !== undefined) query.set('status', status);
    if (cursor !== undefined) query.set('cursor', cursor);
    const search = query.size > 0 ? `?${query}` : '';
    return `${root}/pets${search}`;
  };

  /** The next page's URL, resolved as the Link says; the API key is never sent to another origin. */
  const resolveNext = (response: ApiResponse): string | undefined => {
    const target = readNextLink(response.headers);
    if (target === undefined) return undefined;
    const next = new URL(target, base);
    if (next.origin !== base.origin) throw unexpected(response, `paged on its own origin (${next.origin})`);
    return next.href;
  };

  const fetchPage = async (url: string): Promise<Page> => {
    const response = await send(transport, { method: 'GET', url });
    const { body } = response;
    if (!Array.isArray(body) || !body.every(isPet)) throw unexpected(response, 'an array of Pet');
    const nextUrl = resolveNext(response);
    const nextCursor = nextUrl === undefined ? undefined : new URL(nextUrl).searchParams.get('cursor');
    const page: Page = { pets: body, rateLimit: response.rateLimit };
    if (nextUrl !== undefined) page.nextUrl = nextUrl;
    if (nextCursor) page.nextCursor = nextCursor;
    return page;
  };

  return {
    async listPets(params = {}) {
      const { pets, nextCursor, rateLimit } = await fetchPage(listUrl(params));
      return nextCursor === undefined ? { pets, rateLimit } : { pets, nextCursor, rateLimit };
    },

    async *pets({ status, pageSize } = {}) {
      let url: string | undefined = listUrl({ status, limit: pageSize });
      while (url !== undefined) {
        const page: Page = await fetchPage(url);
        yield* page.pets;
        url = page.nextUrl;
      }
    },

    async createPet(pet, { idempotencyKey = globalThis.crypto.randomUUID() } = {}) {
      const response = await send(transport, {
        method: 'POST',
        url: `${root}/pets`,
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: stringifyJson(pet),
      });
      return {
        pet: readPet(response),
        idempotencyKey,
        replayed: response.headers.get('idempotent-replayed') === 'true',
        rateLimit: response.rateLimit,
      };
    },

    async getPet(id) {
      const response = await send(transport, { method: 'GET', url: `${root}/pets/${id}` });
      return { pet: readPet(response), rateLimit: response.rateLimit };
    },
  };
}
