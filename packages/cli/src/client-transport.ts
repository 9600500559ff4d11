import { rootCause, unreachable } from './api-failure.ts';
import { type Timeouts, timedFetch } from './http-fetch.ts';
import { type CliIo, note } from './io.ts';

/**
 * The fetch and sleep the command line gives both typed clients (the pets API's and the management
 * API's): every request under the timeouts; a request that got no answer is not sent again (a server
 * that is down or hung is said at once, within the timeouts), while answers that ask for a retry (429,
 * 503) are retried as the client does, a wait of a second or more said on stderr.
 */
export function cliTransport(
  io: CliIo,
  baseUrl: string,
  timeouts: Timeouts,
): { fetch: typeof fetch; sleep: (ms: number) => Promise<void> } {
  const send = timedFetch(timeouts);
  let noAnswer: unknown;
  return {
    fetch: async (input, init) => {
      try {
        noAnswer = undefined;
        return await send(input, init);
      } catch (error) {
        noAnswer = error;
        throw error;
      }
    },
    sleep: (ms) => {
      if (noAnswer !== undefined) return Promise.reject(unreachable(baseUrl, rootCause(noAnswer)));
      if (ms >= 1_000) note(io, `waiting ${Math.ceil(ms / 1_000)} s before retrying`);
      return new Promise((resolve) => setTimeout(resolve, ms));
    },
  };
}
