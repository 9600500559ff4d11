import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { AnsweredRequest } from './answered.ts';

/** Writes the one log line of an answered request. */
export type RequestLine = (answer: AnsweredRequest) => void;

/**
 * The one log line of an answered request: its id, method, target with secrets redacted, status,
 * duration and the public id of the key that was used. Always at info: a failure that deserves more is
 * logged by the error handler, once, with its cause.
 */
function fields(answer: AnsweredRequest) {
  return {
    reqId: answer.id,
    method: answer.method,
    url: answer.loggedUrl,
    statusCode: answer.status,
    ms: Math.round(answer.ms * 100) / 100,
    keyId: answer.key?.id,
  };
}

const INFO = 30;
const { chindingsSym, endSym, lsCacheSym, messageKeySym, mixinSym, streamSym, timeSym } = pino.symbols;

/**
 * The request line of every answer, or with `sample` above 1 (LOG_SAMPLE) of one answer below 400 in
 * `sample` (the first, then every sample-th) and of every 4xx and 5xx: the line costs several per cent
 * of a request. The request log in the database keeps every request whatever this says.
 */
export function requestLine(log: FastifyBaseLogger, sample = 1): RequestLine {
  const write = lineWriter(log);
  if (sample <= 1) return write;
  let answered = 0;
  return (answer) => {
    if (answer.status < 400 && answered++ % sample !== 0) return;
    write(answer);
  };
}

/**
 * The request line, written as pino would write `log.info(fields, 'request')` but without its generic
 * object walk (about half of the line's cost, which is several per cent of a request): the level,
 * time, bindings and end come from the logger itself, every value is JSON-encoded. Loggers this cannot
 * read (no pino stream, a mixin) take the ordinary call; test/logging.test.ts holds the two equal.
 */
function lineWriter(log: FastifyBaseLogger): RequestLine {
  const logger = log as unknown as Record<symbol, unknown>;
  const stream = logger[streamSym] as { write(line: string): void } | undefined;
  const levelPrefix = (logger[lsCacheSym] as Record<number, string> | undefined)?.[INFO];
  if (!stream || !levelPrefix || logger[mixinSym] || logger[messageKeySym] !== 'msg') {
    return (answer) => log.info(fields(answer), 'request');
  }
  const time = logger[timeSym] as () => string;
  const end = logger[endSym] as string;
  return (answer) => {
    if ((log as unknown as pino.Logger).levelVal > INFO) return;
    const key = answer.key ? `,"keyId":${JSON.stringify(answer.key.id)}` : '';
    stream.write(
      `${levelPrefix}${time()}${logger[chindingsSym] as string},"reqId":${JSON.stringify(answer.id)}` +
        `,"method":${JSON.stringify(answer.method)},"url":${JSON.stringify(answer.loggedUrl)}` +
        `,"statusCode":${answer.status},"ms":${Math.round(answer.ms * 100) / 100}${key},"msg":"request"${end}`,
    );
  };
}

/** The same line through pino's own call (for the equivalence test). */
export function logRequest(log: FastifyBaseLogger, answer: AnsweredRequest): void {
  log.info(fields(answer), 'request');
}
