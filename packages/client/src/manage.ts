import { checkBaseUrl } from './base-url.ts';
import { PetstoreError } from './errors.ts';
import { parseManageJson, stringifyJson } from './json.ts';
import type {
  InitArgument,
  ManageData,
  ManageInit,
  ManageMethod,
  ManageNdjsonItem,
  ManageNdjsonPath,
  ManageOperation,
  ManagePageItem,
  ManagePagedPath,
  ManagePagesInit,
  ManagePathOf,
  ManageResult,
} from './manage-types.ts';
import { ndjsonLines } from './ndjson.ts';
import { type ApiResponse, createTransport, open, send } from './transport.ts';
import type { PetstoreClientOptions } from './types.ts';

export interface ManageClientOptions extends Omit<PetstoreClientOptions, 'apiKey'> {
  /** The management API's base URL, version segment included: `https://petstore.example/manage/v1`. */
  baseUrl: string;
  /** An access token (`ps_at_…`, made in the dashboard under Account → Access tokens). */
  token: string;
}

type Call<M extends ManageMethod> = <P extends ManagePathOf<M>>(
  path: P,
  ...init: InitArgument<ManageOperation<P, M>>
) => Promise<ManageResult<ManageData<ManageOperation<P, M>>>>;

/** A page as `pages` yields it: its items, whether more follow, and the cursor of the next. */
export interface ManagePage<Item> {
  data: Item[];
  hasMore: boolean;
  next: string | null;
  requestId: string | undefined;
}

export interface ManageClient {
  /** `GET path`: e.g. `get('/projects/{slug}', { path: { slug: 'acme' } })`. */
  get: Call<'get'>;
  /** `POST path` with a JSON body. Sent again only after a 429: the management API takes no Idempotency-Key. */
  post: Call<'post'>;
  /** `PATCH path` with a JSON body. Sent again only after a 429, like `post`. */
  patch: Call<'patch'>;
  /** `DELETE path`. Sent again only after a 429, like `post`. */
  delete: Call<'delete'>;
  /** Every page of a paged GET from `query.cursor` on (the first page without it), following `next`. */
  pages<P extends ManagePagedPath>(
    path: P,
    init: ManagePagesInit<P>,
  ): AsyncGenerator<ManagePage<ManagePageItem<P>>, void, undefined>;
  /** Every item of a paged GET, page after page, in constant memory. */
  items<P extends ManagePagedPath>(
    path: P,
    init: ManagePagesInit<P>,
  ): AsyncGenerator<ManagePageItem<P>, void, undefined>;
  /**
   * Every line of a GET's `application/x-ndjson` export, as it arrives: one request, no paging, any
   * size in constant memory (`GET /projects/{slug}/requests`).
   */
  ndjson<P extends ManageNdjsonPath>(
    path: P,
    ...init: InitArgument<ManageOperation<P, 'get'>>
  ): AsyncGenerator<ManageNdjsonItem<P>, void, undefined>;
}

type AnyInit = { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

/** A client of the management API (`/manage/v1`), typed from its contract. Options are checked here, once. */
export function createManageClient(options: ManageClientOptions): ManageClient {
  const base = checkBaseUrl(options.baseUrl);
  if (typeof options.token !== 'string' || options.token === '') {
    throw new TypeError('token must be a non-empty string');
  }
  const root = base.href.replace(/\/+$/, '');
  const transport = createTransport(options, options.token, parseManageJson);

  const urlOf = (path: string, init: AnyInit = {}): string => {
    const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = init.path?.[name];
      if (value === undefined || value === null || value === '') {
        throw new TypeError(`${path} needs path.${name}`);
      }
      return encodeURIComponent(String(value));
    });
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(init.query ?? {})) {
      if (value !== undefined && value !== null) query.set(name, String(value));
    }
    return `${root}${filled}${query.size > 0 ? `?${query}` : ''}`;
  };

  const result = (response: ApiResponse) => ({
    data: response.body,
    status: response.status,
    requestId: response.headers.get('x-request-id') ?? undefined,
    rateLimit: response.rateLimit,
  });

  const call =
    (method: 'GET' | 'POST' | 'PATCH' | 'DELETE') =>
    async (path: string, init?: AnyInit): Promise<ManageResult<unknown>> => {
      const body = init?.body === undefined ? undefined : stringifyJson(init.body);
      const response = await send(transport, {
        method,
        url: urlOf(path, init),
        ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
        replayable: method === 'GET',
      });
      return result(response);
    };
  const get = call('GET');

  async function* pages(path: string, init: AnyInit): AsyncGenerator<ManagePage<unknown>> {
    let cursor = init.query?.cursor as string | undefined;
    do {
      const { data, requestId, status } = await get(path, { ...init, query: { ...init.query, cursor } });
      const page = data as Partial<ManagePage<unknown>> | undefined;
      if (!Array.isArray(page?.data) || typeof page.hasMore !== 'boolean') {
        throw new PetstoreError({
          code: 'unexpected_response',
          status,
          message: `HTTP ${status} response body is not a page (data, hasMore, next)`,
          requestId,
        });
      }
      const next = page.hasMore && typeof page.next === 'string' ? page.next : null;
      yield { data: page.data, hasMore: next !== null, next, requestId };
      cursor = next ?? undefined;
    } while (cursor !== undefined);
  }

  async function* items(path: string, init: AnyInit): AsyncGenerator<unknown> {
    for await (const page of pages(path, init)) yield* page.data;
  }

  async function* ndjson(path: string, init?: AnyInit): AsyncGenerator<unknown> {
    const url = urlOf(path, init);
    const response = await open(transport, {
      method: 'GET',
      url,
      headers: { accept: 'application/x-ndjson' },
    });
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('application/x-ndjson') || response.body === null) {
      await response.body?.cancel();
      throw new PetstoreError({
        code: 'unexpected_response',
        status: response.status,
        message: `HTTP ${response.status} response is not application/x-ndjson (${type || 'no content type'})`,
        requestId: response.headers.get('x-request-id') ?? undefined,
      });
    }
    yield* ndjsonLines(response.body, parseManageJson, `the export of ${path}`);
  }

  return {
    get: get as ManageClient['get'],
    post: call('POST') as ManageClient['post'],
    patch: call('PATCH') as ManageClient['patch'],
    delete: call('DELETE') as ManageClient['delete'],
    pages: pages as ManageClient['pages'],
    items: items as ManageClient['items'],
    ndjson: ndjson as ManageClient['ndjson'],
  };
}

export type { ManageInit };
