import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { markInternal } from './host-kind.ts';
// process.getBuiltinModule, not an ESM import: importing node:http as a module loads Node's fetch
// (undici) for its namespace, about 65 ms and 14 MB at start.
const { createServer } = process.getBuiltinModule('node:http');

export interface InternalListener {
  /** `http://host:port`, as the TLS proxy's `ask` should name it. */
  url: string;
  close(): Promise<void>;
}

/**
 * The service's second listener, for its own infrastructure (the TLS proxy's question): requests on it
 * reach only `internal` routes, and no request on the public port ever reaches those, whatever its
 * Host or path. Bind it to loopback, or to a private network the proxy shares; never publish it.
 */
export async function listenInternal(
  app: FastifyInstance,
  options: { host: string; port: number },
): Promise<InternalListener> {
  const server = createServer((request, response) => {
    markInternal(request);
    app.routing(request, response);
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
