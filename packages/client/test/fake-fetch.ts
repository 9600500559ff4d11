/** One request as the fake fetch saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string | undefined;
}

/** What the fake answers to one request: a response, a thrown error (a dropped connection), or either from the request. */
export type Step = Response | Error | ((request: SeenRequest) => Response);

export interface FakeFetch {
  fetch: typeof fetch;
  requests: SeenRequest[];
}

/** A fetch that answers each request with the next step; running out of steps fails the test. */
export function scriptedFetch(steps: Step[]): FakeFetch {
  const requests: SeenRequest[] = [];
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request: SeenRequest = {
      method: init.method ?? 'GET',
      url: String(input),
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
    };
    requests.push(request);
    const step = steps[requests.length - 1];
    if (step === undefined) throw new Error(`unexpected request #${requests.length}: ${request.url}`);
    if (step instanceof Error) throw step;
    return typeof step === 'function' ? step(request) : step;
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

const RATE_LIMIT = {
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': '59',
  'x-ratelimit-reset': '1767268860',
};

/** A JSON response with the rate-limit headers, written as given (so 64-bit literals stay exact). */
export function json(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { 'content-type': 'application/json', ...RATE_LIMIT, ...headers },
  });
}

/** The service's Error body. */
export function apiError(
  status: number,
  code: string,
  headers: Record<string, string> = {},
  extra: Record<string, string> = {},
): Response {
  return json(status, JSON.stringify({ code, message: `${code} happened`, status, ...extra }), headers);
}

/** A sleep that only records how long it was asked to wait. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; slept: number[] } {
  const slept: number[] = [];
  return { sleep: async (ms) => void slept.push(ms), slept };
}

export const BASE_URL = 'https://api.petstore.example/v1';
export const PET_JSON = '{"id":1,"name":"Rex","categoryId":3,"status":"available"}';
