import type { CliIo } from './io.ts';
import { UsageError } from './usage.ts';

/** Where the API is when neither --base-url nor PETSTORE_BASE_URL names it. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080/v1';

/** The service's address, and what named it (undefined: nothing did, it is the default). */
export interface ServiceAddress {
  url: URL;
  source: '--base-url' | 'PETSTORE_BASE_URL' | undefined;
}

/** `--base-url` (when the command takes it), else PETSTORE_BASE_URL, else the default; an http(s) URL. */
export function serviceAddress(io: CliIo, flag?: string): ServiceAddress {
  const source =
    flag !== undefined ? '--base-url' : io.env.PETSTORE_BASE_URL ? 'PETSTORE_BASE_URL' : undefined;
  const text = flag ?? (io.env.PETSTORE_BASE_URL || DEFAULT_BASE_URL);
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(
      `${source ?? 'PETSTORE_BASE_URL'} must be an http(s) URL such as ${DEFAULT_BASE_URL}, got ${JSON.stringify(text)}`,
    );
  }
  return { url, source };
}

/** The pets API's base URL: the address itself, with `/v1` when it has no path. */
export function petsBaseUrl({ url }: ServiceAddress): string {
  const api = new URL(url);
  if (api.pathname === '/') api.pathname = '/v1';
  return api.href;
}

/** The service's root path: the address's, without trailing slashes and a final `/v1` or `/manage/v1`. */
const rootPath = (url: URL): string => url.pathname.replace(/\/+$/, '').replace(/(\/manage)?\/v1$/, '');

/** The management API's base URL: the service's origin and root path, then `/manage/v1`. */
export function manageBaseUrl({ url }: ServiceAddress): string {
  return `${url.origin}${rootPath(url)}/manage/v1`;
}

/** Names of this machine that reach the same server: one saved login serves them all. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The one spelling under which a login is saved and looked up: scheme and host in lower case (the URL
 * parser's), `localhost`, `127.0.0.1` and `[::1]` as `localhost`, no trailing dot, the port only when it
 * is not the scheme's, the root path and `/manage/v1`. `http://127.0.0.1:8080/v1`,
 * `http://LOCALHOST:8080/` and `http://[::1]:8080/manage/v1/` are one login.
 */
export function loginKey(baseUrl: string): string {
  const url = new URL(baseUrl);
  const host = url.hostname.replace(/\.$/, '');
  const name = LOOPBACK.has(host) ? 'localhost' : host;
  return `${url.protocol}//${name}${url.port ? `:${url.port}` : ''}${rootPath(url)}/manage/v1`;
}
