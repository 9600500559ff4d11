import { type ManageClient, PetstoreError } from './api-client.ts';
import type { ManageApi } from './manage-session.ts';

/** What the API refused, as a service's refusal reads: the Error body's code, message and status. */
export interface ApiRefusal {
  code: string;
  message: string;
  status: number;
}

/** A refusal the commands report as their database mode does (not a token, a limit or an outage). */
const isRefusal = (error: unknown): error is PetstoreError =>
  error instanceof PetstoreError &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 401 &&
  error.status !== 429;

/**
 * Runs `call`: its answer, or the API's refusal (4xx but 401 and 429) as a value, so a command reports
 * it as it reports the service's refusal on the database; anything else is reported as every call is.
 */
export async function attempt<T>(
  api: ManageApi,
  call: (client: ManageClient) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; problem: ApiRefusal }> {
  try {
    return { ok: true, value: await call(api.client) };
  } catch (error) {
    if (!isRefusal(error)) return api.run(() => Promise.reject(error));
    return { ok: false, problem: { code: error.code, message: error.message, status: error.status } };
  }
}
