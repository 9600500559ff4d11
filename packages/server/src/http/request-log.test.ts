import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import fc from 'fast-check';
import { pino } from 'pino';
import type { AnsweredRequest } from './answered.ts';
import { logRequest, requestLine } from './request-log.ts';

/** A pino logger writing into `lines`, configured as the server configures it (or as a cluster worker). */
function captured(lines: string[], base?: Record<string, unknown>, level = 'info') {
  const stream = { write: (line: string) => void lines.push(line) };
  return pino({ level, redact: ['req.headers.authorization'], ...(base ? { base } : {}) }, stream);
}

const answer = fc.record({
  id: fc.string({ unit: 'binary', maxLength: 40 }),
  method: fc.constantFrom('GET', 'HEAD', 'POST', 'PROPFIND'),
  loggedUrl: fc.string({ unit: 'binary', maxLength: 80 }),
  status: fc.integer({ min: 100, max: 599 }),
  ms: fc.double({ min: 0, max: 1e6, noNaN: true }),
  keyId: fc.option(fc.string({ unit: 'binary', maxLength: 30 }), { nil: undefined }),
});

test('the request line is written byte for byte as pino writes log.info(fields, "request"), time aside', () => {
  for (const base of [undefined, { pid: 7, hostname: 'h"ost\n', worker: 2 }]) {
    fc.assert(
      fc.property(answer, (fields) => {
        const request = {
          ...fields,
          key: fields.keyId === undefined ? undefined : { id: fields.keyId },
        } as unknown as AnsweredRequest;
        const fast: string[] = [];
        const slow: string[] = [];
        requestLine(captured(fast, base) as unknown as FastifyBaseLogger)(request);
        logRequest(captured(slow, base) as unknown as FastifyBaseLogger, request);
        const withoutTime = (line: string) => line.replace(/,"time":\d+/, '');
        assert.equal(fast.length, 1);
        assert.equal(withoutTime(fast[0]!), withoutTime(slow[0]!));
        assert.deepEqual(Object.keys(JSON.parse(fast[0]!)), Object.keys(JSON.parse(slow[0]!)));
      }),
    );
  }
});

test('the request line is not written when the level is above info', () => {
  const lines: string[] = [];
  const log = captured(lines, undefined, 'warn');
  requestLine(log as unknown as FastifyBaseLogger)({
    id: 'a',
    method: 'GET',
    loggedUrl: '/',
    status: 200,
    ms: 1,
  } as AnsweredRequest);
  assert.deepEqual(lines, []);
});

test('with a sample of 3, the line of the first answer below 400 in every 3, and of every 4xx and 5xx', () => {
  const lines: string[] = [];
  const line = requestLine(captured(lines) as unknown as FastifyBaseLogger, 3);
  const statuses = [200, 200, 404, 200, 201, 500, 200, 304, 429];
  statuses.forEach((status, index) =>
    line({ id: `r${index}`, method: 'GET', loggedUrl: '/', status, ms: 1 } as AnsweredRequest),
  );
  const logged = lines.map((text) => JSON.parse(text) as { reqId: string; statusCode: number });
  assert.deepEqual(
    logged.map((entry) => `${entry.reqId} ${entry.statusCode}`),
    // Below 400: r0, r1, r3, r4, r6, r7; the first of each three written.
    ['r0 200', 'r2 404', 'r4 201', 'r5 500', 'r8 429'],
  );
});
