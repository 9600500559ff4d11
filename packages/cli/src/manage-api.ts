import { createManageClient, type ManageClient, PetstoreError } from './api-client.ts';
import { apiFailure } from './api-failure.ts';
import { cliTransport } from './client-transport.ts';
import { readTimeouts } from './http-options.ts';
import type { CliIo } from './io.ts';
import type { ParsedCommand } from './usage.ts';

/** The management API as the commands call it: the typed client, and its refusals as CLI errors. */
export interface ManageApi {
  client: ManageClient;
  baseUrl: string;
  /** Runs `call`, turning a PetstoreError into one `petstore: …` line with its exit status. */
  run<T>(call: (client: ManageClient) => Promise<T>): Promise<T>;
}

const LOGIN_HINT = 'the access token was refused: run "petstore login" again or check PETSTORE_ACCESS_TOKEN';

/** The management client for `token`, with the pets commands' timeouts and retry rules. */
export function manageApi(io: CliIo, parsed: ParsedCommand, baseUrl: string, token: string): ManageApi {
  const client = createManageClient({
    baseUrl,
    token,
    userAgent: 'petstore-cli',
    ...cliTransport(io, baseUrl, readTimeouts(io, parsed)),
  });
  return {
    client,
    baseUrl,
    async run(call) {
      try {
        return await call(client);
      } catch (error) {
        throw error instanceof PetstoreError ? apiFailure(error, baseUrl, LOGIN_HINT) : error;
      }
    },
  };
}
