import net from 'node:net';

/** One HTTP/1.1 response read off a raw socket. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent (several responses when it answered pipelined requests). */
  raw: string;
  /** Whether the server closed the connection within the wait. */
  closed: boolean;
  /** From the connect to the end of the first complete response (or to the close). */
  elapsedMs: number;
  json(): Record<string, unknown>;
}

export interface RawOptions {
  port: number;
  /** Bytes to send, as is; a list is sent one part at a time, `gapMs` apart. */
  send: string | Buffer | (string | Buffer)[];
  gapMs?: number;
  /** Local address to connect from (any of 127.0.0.0/8 on Linux): a client address of its own. */
  localAddress?: string;
  /** How long to wait for the answer (and the close, when awaited) at most (default 3 s). */
  waitMs?: number;
  /** Resolve at the first complete response, even one that announces `Connection: close`. */
  firstResponseOnly?: boolean;
  /** Wait for the server to close the connection, to see every response it sends (pipelining). */
  untilClose?: boolean;
}

interface Head {
  status: number;
  headers: Record<string, string>;
  bodyStart: number;
  length: number | undefined;
}

function parseHead(raw: Buffer): Head | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const lines = raw.subarray(0, end).toString('latin1').split('\r\n');
  const statusLine = lines.shift()!;
  // An interim response (100 Continue) is not the answer: skip it.
  const status = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] =
      headers[name] === undefined
        ? line.slice(colon + 1).trim()
        : `${headers[name]}, ${line.slice(colon + 1).trim()}`;
  }
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  return { status, headers, bodyStart: end + 4, length };
}

/** The first final response in `raw` once it is complete, else undefined. */
function firstResponse(raw: Buffer): { head: Head; body: Buffer } | undefined {
  let offset = 0;
  for (;;) {
    const head = parseHead(raw.subarray(offset));
    if (!head) return undefined;
    if (head.status >= 100 && head.status < 200) {
      offset += head.bodyStart;
      continue;
    }
    const start = offset + head.bodyStart;
    if (head.length === undefined || raw.length < start + head.length) return undefined;
    return { head, body: raw.subarray(start, start + head.length) };
  }
}

/**
 * Sends bytes on a fresh TCP connection and reads what comes back, without any HTTP client in between:
 * what a hostile or broken client sees. Resolves as soon as the first response is complete, except
 * that after one announcing `Connection: close` it waits for that close (so `closed` tells whether
 * the server kept its word); with `untilClose` only once the server closed the connection. At the
 * latest after `waitMs`.
 */
export function rawRequest(options: RawOptions): Promise<RawResponse> {
  const parts = Array.isArray(options.send) ? options.send : [options.send];
  const waitMs = options.waitMs ?? 3_000;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let received = Buffer.alloc(0);
    let answeredAt: number | undefined;
    let closed = false;
    let done = false;
    const socket = net.connect({ host: '127.0.0.1', port: options.port, localAddress: options.localAddress });
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const first = firstResponse(received);
      const head = first?.head ?? parseHead(received);
      if (!head) {
        if (received.length === 0 && !closed) reject(new Error(`no answer within ${waitMs} ms`));
        else
          resolve({
            status: 0,
            headers: {},
            body: '',
            raw: received.toString('latin1'),
            closed,
            elapsedMs: performance.now() - started,
            json: () => ({}),
          });
        return;
      }
      const body = (first?.body ?? received.subarray(head.bodyStart)).toString('utf8');
      resolve({
        status: head.status,
        headers: head.headers,
        body,
        raw: received.toString('latin1'),
        closed,
        elapsedMs: (answeredAt ?? performance.now()) - started,
        json: () => JSON.parse(body) as Record<string, unknown>,
      });
    };
    // After a long turn of this process Node runs expired timers before it reads sockets: the poll
    // phase gets one pass (setImmediate runs after it) so an answer already waiting is never missed.
    const timer = setTimeout(() => setImmediate(finish), waitMs);
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const first = answeredAt === undefined ? firstResponse(received) : undefined;
      if (first) {
        answeredAt = performance.now();
        const closing = /(^|,)\s*close\s*(,|$)/i.test(first.head.headers.connection ?? '');
        if (options.firstResponseOnly || (!options.untilClose && !closing)) finish();
      }
    });
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('connect', async () => {
      for (const [index, part] of parts.entries()) {
        if (index > 0 && options.gapMs) await new Promise((wake) => setTimeout(wake, options.gapMs));
        if (socket.destroyed) return;
        socket.write(part);
      }
    });
  });
}

/** One answer of a connection, in the order sent. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Every complete answer in `raw`, in order; what follows the last complete one is left out. */
export function splitAnswers(raw: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let offset = 0;
  for (;;) {
    const head = parseHead(raw.subarray(offset));
    if (!head) return answers;
    const start = offset + head.bodyStart;
    const length = head.length ?? raw.length - start;
    if (raw.length < start + length) return answers;
    if (head.status >= 200) {
      answers.push({
        status: head.status,
        headers: head.headers,
        body: raw.subarray(start, start + length).toString('utf8'),
      });
    }
    offset = start + length;
  }
}

export interface ExchangeOptions {
  port: number;
  /** Written one part at a time, each once the one before has been handed to the socket. */
  parts: (string | Buffer)[];
  /** Half-close after the last part (default true): the server answers, then closes. */
  end?: boolean;
  /** Write the next part only once this many answers arrived (default: at once). */
  afterAnswers?: number[];
  /** The longest the server may take to close (default 20 s): a bound, never a measure. */
  waitMs?: number;
}

/**
 * Sends `parts` on one connection (pipelined: nothing waits for an answer unless told), half-closes,
 * and reads every answer until the server closes the connection. Rejects if it never does.
 */
export function rawExchange(options: ExchangeOptions): Promise<{ answers: RawAnswer[]; raw: string }> {
  const waitMs = options.waitMs ?? 20_000;
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const socket = net.connect({ host: '127.0.0.1', port: options.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server did not close within ${waitMs} ms: ${received.toString('latin1')}`));
    }, waitMs);
    let waiting: (() => void) | undefined;
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      waiting?.();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      waiting?.();
      resolve({ answers: splitAnswers(received), raw: received.toString('latin1') });
    });
    const answered = (count: number) =>
      new Promise<void>((wake) => {
        waiting = () => {
          if (socket.destroyed || splitAnswers(received).length >= count) wake();
        };
        waiting();
      });
    socket.on('connect', async () => {
      for (const [index, part] of options.parts.entries()) {
        const after = options.afterAnswers?.[index];
        if (after !== undefined) await answered(after);
        if (socket.destroyed) return;
        await new Promise<void>((written) => socket.write(part, () => written()));
      }
      if (options.end ?? true) socket.end();
    });
  });
}
