import { createPetstoreClient } from '../../../client/src/index.ts';

/** The contract's operations the client has a method for (its methods are named by operationId). */
export const CLIENT_OPERATIONS: string[] = Object.keys(
  createPetstoreClient({ baseUrl: 'http://localhost/v1', apiKey: 'unused' }),
);
