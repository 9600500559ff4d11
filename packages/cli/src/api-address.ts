import type { CliIo } from './io.ts';
import { UsageError } from './usage.ts';

/** Where the API is when PETSTORE_BASE_URL is not set. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080/v1';

/** PETSTORE_BASE_URL (or the default), checked: an http(s) URL. */
export function apiAddress(env: NodeJS.ProcessEnv): URL {
  const text = env.PETSTORE_BASE_URL || DEFAULT_BASE_URL;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(
      `PETSTORE_BASE_URL must be an http(s) URL such as ${DEFAULT_BASE_URL}, got ${JSON.stringify(text)}`,
    );
  }
  return url;
}

/** The management API's base URL: PETSTORE_BASE_URL's origin and `/manage/v1`. */
export function manageBaseUrl(io: CliIo): string {
  return `${apiAddress(io.env).origin}/manage/v1`;
}
