import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { Socket } from 'node:net';

/** How long a request may wait: for the connection (TLS included), then for each piece of the answer. */
export interface Timeouts {
  connectMs: number;
  readMs: number;
}

/** A request that got no connection or no answer in time; `code` names which. */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
  readonly code: 'CONNECT_TIMEOUT' | 'READ_TIMEOUT';

  constructor(code: TimeoutError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

const seconds = (ms: number) => `${ms / 1_000} s`;

function toHeaders(message: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    for (const item of Array.isArray(value) ? value : [value ?? '']) headers.append(name, item);
  }
  return headers;
}

/** Starts the read timer once connected; a socket that never connects is ended by the connect timer. */
function watch(request: ClientRequest, socket: Socket, secure: boolean, timeouts: Timeouts): void {
  const connected = () => {
    clearTimeout(connectTimer);
    socket.setTimeout(timeouts.readMs, () =>
      request.destroy(
        new TimeoutError('READ_TIMEOUT', `no answer for ${seconds(timeouts.readMs)} (the read timeout)`),
      ),
    );
  };
  const connectTimer = setTimeout(
    () =>
      request.destroy(
        new TimeoutError(
          'CONNECT_TIMEOUT',
          `no connection within ${seconds(timeouts.connectMs)} (the connect timeout)`,
        ),
      ),
    timeouts.connectMs,
  );
  request.once('close', () => clearTimeout(connectTimer));
  socket.once(secure ? 'secureConnect' : 'connect', connected);
}

/**
 * A `fetch` over node:http(s) that gives up when the connection is not made within `connectMs`, or
 * when the server sends nothing for `readMs` while the answer is awaited or read (an NDJSON body
 * streams, and a timeout while it is read fails the read with the TimeoutError). One connection per
 * request, closed after it: nothing is left open to keep the process alive.
 */
export function timedFetch(timeouts: Timeouts): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const secure = url.protocol === 'https:';
    const { request: send } = secure ? await import('node:https') : await import('node:http');
    const options: RequestOptions = {
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      agent: false,
    };
    // Other answers are read whole before the promise resolves, so a body that stops coming fails the
    // request itself (and the retry rules see no answer).
    const streaming = (options.headers as Record<string, string>).accept?.includes('application/x-ndjson');
    return new Promise<Response>((resolve, reject) => {
      let failure: Error | undefined;
      const request = send(url, options, (message) => {
        const status = message.statusCode ?? 0;
        const init = { status, statusText: message.statusMessage, headers: toHeaders(message) };
        if ([204, 205, 304].includes(status)) {
          message.resume();
          resolve(new Response(null, init));
          return;
        }
        if (!streaming) {
          const chunks: Buffer[] = [];
          message.on('data', (chunk: Buffer) => chunks.push(chunk));
          message.on('error', reject);
          message.on('end', () => resolve(new Response(Buffer.concat(chunks), init)));
          return;
        }
        // An NDJSON export streams as it arrives, in constant memory; the read timeout still holds.
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            message.on('data', (chunk: Buffer) => {
              controller.enqueue(new Uint8Array(chunk));
              if ((controller.desiredSize ?? 1) <= 0) message.pause();
            });
            message.on('end', () => controller.close());
            message.on('close', () => {
              if (!message.complete)
                controller.error(failure ?? new Error('the connection closed mid-answer'));
            });
          },
          pull: () => void message.resume(),
          cancel: () => void request.destroy(),
        });
        resolve(new Response(body, init));
      });
      request.on('socket', (socket: Socket) => watch(request, socket, secure, timeouts));
      request.on('error', (error) => {
        failure = error;
        reject(error);
      });
      request.end(typeof init?.body === 'string' ? init.body : undefined);
    });
  };
}
