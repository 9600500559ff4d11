import { runtimeProblem } from './runtime.ts';

/** Checks the runtime and a client's `baseUrl` (http or https) once, when the client is created. */
export function checkBaseUrl(baseUrl: unknown): URL {
  const problem = runtimeProblem();
  if (problem !== undefined) throw new Error(problem);
  const base = typeof baseUrl === 'string' && URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (base === undefined || (base.protocol !== 'https:' && base.protocol !== 'http:')) {
    throw new TypeError(`baseUrl must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  return base;
}
